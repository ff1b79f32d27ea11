/** Generated from the service's OpenAPI document by tests/ui/api-types-current.test.ts: do not edit. */
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 once the service accepts requests */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** ASK AI's state for this workspace: whether a model is set (and whose), else how to set one */
        get: operations["getAssistant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's own ASK AI model (admins): URL, model, whether a key is set (the key is never answered) */
        get: operations["getAssistantSettings"];
        /**
         * Set the workspace's own ASK AI model (admins): api_url and model, api_key (write-only: absent keeps it, null removes it), enabled
         * @description A workspace without its own URL uses the service-wide model (AI_API_URL, AI_API_KEY, AI_MODEL), whose key is never sent to a URL a workspace sets. The URL passes the outbound guard (WEBHOOK_ALLOW_HOSTS for a private address).
         */
        put: operations["putAssistantSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/assistant/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the assistant: the conversation in, server-sent events out (tool_call, tool_result, delta, done, error)
         * @description The model (the workspace's or the service's) answers with the workspace's MCP tools, run with the caller's own rights; every tool call counts against the monthly AI tool-call budget. Events: `tool_call` {id, name, arguments}, `tool_result` {id, name, ok, summary}, `delta` {content}, then `done` {rounds, tool_calls} or `error` {error, message}. 409 `assistant_not_configured` says how to set a model.
         */
        post: operations["postAssistantChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The authenticated identity */
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspaces you may act in (send X-Workspace-Id to pick one), oldest membership first; an API token sees only its own */
        get: operations["getAuthMeWorkspaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace's machines, newest first */
        get: operations["getMachines"];
        put?: never;
        /** Register a machine (hostname unique within the workspace) */
        post: operations["postMachines"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One machine: status, hardware, agent version, tools, region and benchmark capacity */
        get: operations["getMachinesById"];
        put?: never;
        post?: never;
        /** Delete a machine */
        delete: operations["deleteMachinesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/machines/{id}/calibrate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Measure the machine's capacity again
         * @description The machine's agent runs a short calibration (the http tool against a loopback target of its own) once it runs no task; a run arriving meanwhile cancels it. The new figure replaces benchmark_capacity when it arrives (GET /machines/{id}). 409 when no agent is connected. The request takes no body (or {}).
         */
        post: operations["postMachinesByIdCalibrate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the workspace's tests, newest first */
        get: operations["getTests"];
        put?: never;
        /** Create a test (status defaults to draft) */
        post: operations["postTests"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test, with its script and thresholds */
        get: operations["getTestsById"];
        put?: never;
        post?: never;
        /** Delete a test; its runs are kept */
        delete: operations["deleteTestsById"];
        options?: never;
        head?: never;
        /** Change any of name, script, status */
        patch: operations["patchTestsById"];
        trace?: never;
    };
    "/api/v1/tests/{id}/baseline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the test's baseline run
         * @description Names a finished run of this test (completed or failed, having run; its UUID or public id) as the run that `GET /tasks/{id}/compare?with=baseline` compares against, replacing any earlier one. 404 for a run that is not in this workspace; 400 for a run of another test, or one that did not finish (pending, running, cancelled, never started). Answers the test with `baseline_task_id` (the run's UUID).
         */
        put: operations["putTestsByIdBaseline"];
        post?: never;
        /** Remove the test's baseline (204 also when it had none) */
        delete: operations["deleteTestsByIdBaseline"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tests/{id}/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The test's last finished runs with their figures, oldest first
         * @description The last `limit` runs of the test that finished (completed or failed, having run; cancelled runs and runs that never started are left out), by the time they finished, answered oldest first so they chart left to right: figures, status and verdict. Bounded by `limit` (default 20, at most 200), not paged; older runs: `GET /tasks?test_id=`.
         */
        get: operations["getTestsByIdTrend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's API tokens in this workspace (never the plaintext) */
        get: operations["getApiTokens"];
        put?: never;
        /** Create a token; needs manage_api_tokens; the plan limits tokens per user */
        post: operations["postApiTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token; it stops working at once */
        delete: operations["deleteApiTokensById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-tokens/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the secret; name, scopes and expiry stay; the old secret stops working at once */
        post: operations["postApiTokensByIdRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's workspace, plan limits, role and permissions */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the workspace or change its plan (manage_billing) */
        patch: operations["patchWorkspace"];
        trace?: never;
    };
    "/api/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of the workspace with their roles, first joined first */
        get: operations["getMembers"];
        put?: never;
        /** Invite a user with a role; they join when they accept (manage_members; owner role only by owners) */
        post: operations["postMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member; the last owner cannot be removed */
        delete: operations["deleteMembersByUserId"];
        options?: never;
        head?: never;
        /** Change a member's role; the last owner cannot be demoted */
        patch: operations["patchMembersByUserId"];
        trace?: never;
    };
    "/api/v1/access-controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Permissions per role (owners only) */
        get: operations["getAccessControls"];
        /** Change permissions per role (owners only; owners keep all) */
        put: operations["putAccessControls"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Activity in the workspace, newest first (view_audit_log) */
        get: operations["getAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's use this month: AI tool calls, machines and tests against the plan, and stored log and metric bytes */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/ai-tool-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deduct one AI tool call from the monthly budget (any member, any token); 429 ai_budget_exhausted, with Retry-After, when used up
         * @description The MCP server calls this before each tool call and runs the tool only on 200. The budget is the plan's per UTC calendar month; a refused call is not counted, and the count resets on the first of the next month, 00:00 UTC. The request takes no body (or {}).
         */
        post: operations["postUsageAiToolCalls"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending invitations of the workspace, newest first (manage_members) */
        get: operations["getMembersInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/members/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw a pending invitation (manage_members) */
        delete: operations["deleteMembersInvitationsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations to other workspaces waiting for your answer, newest first */
        get: operations["getAuthMeInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me/invitations/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation: you join the workspace with its role (act there with X-Workspace-Id) */
        post: operations["postAuthMeInvitationsByIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Decline an invitation */
        delete: operations["deleteAuthMeInvitationsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tasks of the workspace, newest created first */
        get: operations["getTasks"];
        put?: never;
        /** Start a test: 202 with the task id; follow progress with GET /tasks/:id */
        post: operations["postTasks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A task by UUID or public id */
        get: operations["getTasksById"];
        put?: never;
        post?: never;
        /** Cancel a pending or running task (the agent kills the whole process tree) */
        delete: operations["deleteTasksById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/log-stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Follow a task over SSE: one JSON task event per data: frame; Last-Event-ID resumes; a finished task answers a single done event */
        get: operations["getTasksByIdLogStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/otel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenTelemetry metrics the run received (OTLP)
         * @description Series in the order they were first received, up to ?limit= per page and 50000 points per page; a series cut by the point budget continues on the next page (Link, X-Next-Cursor). The id is the task's UUID or public id.
         */
        get: operations["getTasksByIdOtel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's figures over time, merged across its machines
         * @description The whole run in buckets of `step` seconds, live while it runs (each read shows the intervals the agents sent so far). `t` is the bucket start in unix seconds; an interval counts in the bucket that holds its middle. Requests and errors are summed across machines; percentiles come from the merged latency histograms of the bucket, never from averaged percentiles. At most 5000 points: a step too small for the run's length is raised, and `step` in the answer is the one used. The id is the task's UUID or public id.
         */
        get: operations["getTasksByIdTimeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's results per endpoint, merged across its machines
         * @description One row per endpoint name the load tool reported, live while the run goes: requests and errors summed across machines, percentiles read from the merged latency histograms (never averaged). Sorted by requests, most first; at most 200 names a run, every later one counted in a last row named `(other)` (totals stay intact). Empty for a run whose tool names no requests. With `timeline=true` each row also carries its figures per minute. The id is the task's UUID or public id.
         */
        get: operations["getTasksByIdEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run's failures grouped by endpoint, kind and code
         * @description Failures of every machine grouped by (endpoint, kind, code), each with its count and one sample message; sorted by count, most first. A run keeps 500 groups; later ones are counted in one group per kind with endpoint and code `(other)`. At most 1000 groups. The id is the task's UUID or public id.
         */
        get: operations["getTasksByIdErrors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare a run with another run or with its test's baseline
         * @description The run `{id}` (`current`) next to the run named by `with` (`base`): both runs' figures and verdicts, the relative change of p50, p95, p99, error_rate and requests_per_sec ((current - base) / base: 0.12 is 12 % higher; null when the base figure is 0), and the same per endpoint, matched by name (a name only one run has shows null figures on the other side and null changes). `with=baseline` compares with the baseline of the run's test (PUT /tests/{id}/baseline): 404 when it has none. A run of another workspace is a 404 like one that does not exist; 400 without `with`. The figures are those of GET /tasks/{id}: final once the run ended, so far while it runs.
         */
        get: operations["getTasksByIdCompare"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/otlp/v1/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive OpenTelemetry metrics (OTLP/HTTP)
         * @description An OTLP/HTTP metrics endpoint: point an exporter at `{base_url}/otlp` (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = `{base_url}/otlp/v1/metrics`) with the header `Authorization: Bearer psk_...` (a token with metrics:read or runs:write; the role needs run_tests). Bodies are ExportMetricsServiceRequest as protobuf (application/x-protobuf) or OTLP JSON (application/json), optionally gzipped (Content-Encoding: gzip); at most MAX_BODY_BYTES on the wire and 10000 data points (413 beyond). A point belongs to the run named by the attribute `loadplane.task_id` (task UUID or public id; on the resource or the point), else to the one run of the workspace active at the point's time (from its start until 10 s after its end). Points that cannot be placed (no such task in this workspace, no or several active runs, a non-finite value, over 32 attributes) are refused and counted in partialSuccess, as OTLP prescribes; the rest are stored. The answer uses the request's encoding. Gauges and sums store their value; histograms and exponential histograms store `<name>.count`, `.sum`, `.min`, `.max`; summaries `.count` and `.sum`. Labels are the point's attributes plus the resource's service.name, service.namespace, service.instance.id, host.name. A point sent again (same series and time) is stored once.
         */
        post: operations["postOtlpV1Metrics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Load configurations, newest first */
        get: operations["getConfigs"];
        put?: never;
        /** Create a load configuration */
        post: operations["postConfigs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A load configuration */
        get: operations["getConfigsById"];
        put?: never;
        post?: never;
        /** Delete a load configuration */
        delete: operations["deleteConfigsById"];
        options?: never;
        head?: never;
        /** Rename, or replace the load shape whole */
        patch: operations["patchConfigsById"];
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's schedules, newest first */
        get: operations["getSchedules"];
        put?: never;
        /**
         * Schedule a test
         * @description A run it starts is like POST /tasks with the schedule's test, config and machines, and carries `schedule_id`. A time missed while the service was down runs once at its next start. 404 for a test, config or machine not of this workspace; 403 `plan_limit_schedules` past the plan's number of schedules.
         */
        post: operations["postSchedules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule */
        get: operations["getSchedulesById"];
        put?: never;
        post?: never;
        /** Delete a schedule (the runs it started stay) */
        delete: operations["deleteSchedulesById"];
        options?: never;
        head?: never;
        /** Change or enable/disable a schedule */
        patch: operations["patchSchedulesById"];
        trace?: never;
    };
    "/api/v1/env-vars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's environment variables, newest first: keys, times and who changed them, never values */
        get: operations["getEnvVars"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/env-vars/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a variable (201 when new, 200 when replaced); at most 100 per workspace. Every run's tool gets it in its process environment */
        put: operations["putEnvVarsByKey"];
        post?: never;
        /** Delete a variable; runs started from now on no longer get it */
        delete: operations["deleteEnvVarsByKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's dashboards, newest first */
        get: operations["getDashboards"];
        put?: never;
        /** Save a dashboard */
        post: operations["postDashboards"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dashboard */
        get: operations["getDashboardsById"];
        /** Replace the name and panels */
        put: operations["putDashboardsById"];
        post?: never;
        /** Delete a dashboard */
        delete: operations["deleteDashboardsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/git-repos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's git repositories with their sync status, newest first */
        get: operations["getGitRepos"];
        put?: never;
        /** Connect a repository; its first sync is queued at once */
        post: operations["postGitRepos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/git-repos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One repository and its sync status */
        get: operations["getGitReposById"];
        put?: never;
        post?: never;
        /** Disconnect the repository; the tests it made stay, as ordinary tests */
        delete: operations["deleteGitReposById"];
        options?: never;
        head?: never;
        /** Change the URL, branch, path or credentials; the next sync uses them */
        patch: operations["patchGitReposById"];
        trace?: never;
    };
    "/api/v1/git-repos/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a sync (a background job); poll GET /git-repos/{id} for its status */
        post: operations["postGitReposByIdSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp-servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's remote MCP servers, newest first (header names only, never values; manage_mcp_servers) */
        get: operations["getMcpServers"];
        put?: never;
        /** Attach a remote MCP server (at most 10 per workspace); its tools are offered as <name>__<tool> */
        post: operations["postMcpServers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp-servers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One remote MCP server */
        get: operations["getMcpServersById"];
        put?: never;
        post?: never;
        /** Detach the server; its tools are no longer offered */
        delete: operations["deleteMcpServersById"];
        options?: never;
        head?: never;
        /** Rename the server, change its URL, or set and remove headers */
        patch: operations["patchMcpServersById"];
        trace?: never;
    };
    "/api/v1/mcp-servers/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tools of every remote MCP server of the workspace, prefixed; a server that fails within its short deadline is skipped */
        get: operations["getMcpServersTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp-servers/{id}/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Call one tool of a remote MCP server with its stored headers; its result, bounded in size and time */
        post: operations["postMcpServersByIdCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The metrics and label values of the workspace's runs (empty until a run reported metrics) */
        get: operations["getMetricsCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/metrics/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A metric over time: one series per group of `by` labels, one point per step
         * @description Counts are summed per step, rates divide by the step, and latency percentiles come from the merged histogram of every point in the step (never averaged). `format=columns` answers the same series aligned on shared times, as a chart draws them.
         */
        get: operations["getMetricsQuery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prometheus/api/v1/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Instant query (PromQL subset: selectors, rate, increase, sum/avg/min/max/count by, histogram_quantile, + - * /) */
        get: operations["getPrometheusApiV1Query"];
        put?: never;
        /** Instant query (PromQL subset: selectors, rate, increase, sum/avg/min/max/count by, histogram_quantile, + - * /) (form body) */
        post: operations["postPrometheusApiV1Query"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prometheus/api/v1/query_range": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Range query: start, end, step; at most 11,000 points per series */
        get: operations["getPrometheusApiV1QueryRange"];
        put?: never;
        /** Range query: start, end, step; at most 11,000 points per series (form body) */
        post: operations["postPrometheusApiV1QueryRange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prometheus/api/v1/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Label names of the workspace run series */
        get: operations["getPrometheusApiV1Labels"];
        put?: never;
        /** Label names of the workspace run series (form body) */
        post: operations["postPrometheusApiV1Labels"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prometheus/api/v1/label/{name}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A label's values (__name__: the metric names) */
        get: operations["getPrometheusApiV1LabelByNameValues"];
        put?: never;
        /** A label's values (__name__: the metric names) (form body) */
        post: operations["postPrometheusApiV1LabelByNameValues"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prometheus/api/v1/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The series that match[] selects */
        get: operations["getPrometheusApiV1Series"];
        put?: never;
        /** The series that match[] selects (form body) */
        post: operations["postPrometheusApiV1Series"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's webhooks, newest first (never the secret) */
        get: operations["getWebhooks"];
        put?: never;
        /** Create a webhook; the signing secret is in this answer only */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook */
        get: operations["getWebhooksById"];
        put?: never;
        post?: never;
        /** Delete a webhook and its delivery history; waiting deliveries are dropped */
        delete: operations["deleteWebhooksById"];
        options?: never;
        head?: never;
        /** Change the URL, events, description or enabled flag */
        patch: operations["patchWebhooksById"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; every attempt from now on is signed with the new one */
        post: operations["postWebhooksByIdRotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a test.ping to this webhook; its result lands in the delivery history */
        post: operations["postWebhooksByIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of this webhook, newest first, each with every attempt (newest first) and the next attempt time */
        get: operations["getWebhooksByIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a finished (delivered or failed) delivery again, as a new delivery with the same envelope */
        post: operations["postWebhooksByIdDeliveriesByDeliveryIdRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notification-preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notification opt-ins */
        get: operations["getNotificationPreferences"];
        /** Set the caller’s opt-ins; e-mails go to the address of their identity (SMTP_URL must be set) */
        put: operations["putNotificationPreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{id}/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a task over WebSocket
         * @description One JSON task event per text message ({type: log|done|error}); the server closes with 1000 after the terminal one and pings about every 30 s. A finished task answers a single done message. ?after=<id> resumes after that log line.
         */
        get: operations["getTasksByIdWs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent connection
         * @description Agents dial out here with an API token holding machines:write and runs:write; JSON messages as in core/agent/protocol.ts.
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Health */
        Health: {
            /** @constant */
            status: "ok";
        };
        /** Identity */
        Identity: {
            /** @description user UUID in the identity provider */
            sub: string;
            email: string | null;
            name: string | null;
            preferred_username: string | null;
            /** @description realm roles */
            roles: string[];
        };
        /** MyWorkspace */
        MyWorkspace: {
            id: string;
            name: string;
            plan: string;
            /** @description owner, admin, member or viewer */
            role: string;
            /** @description the workspace this request acts in (X-Workspace-Id, else the oldest membership) */
            current: boolean;
        };
        /** MachineTool */
        MachineTool: {
            /** @description a tool id, as tests name it (k6, jmeter, custom, ...) */
            tool: string;
            /** @description the engine's version as the agent found it; null when unknown */
            version: string | null;
        };
        /** Machine */
        Machine: {
            id: string;
            name: string;
            hostname: string;
            ip_address: string;
            /** @description linux, darwin, windows, freebsd or unknown */
            os: string;
            /** @description x86_64, arm64, arm, x86 or unknown */
            arch: string;
            cpu_cores: number;
            memory_gb: number;
            /** @description online, busy, offline */
            status: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /** @description the version of the agent that last connected for this machine; null when none has */
            agent_version: string | null;
            /** @description where the machine runs (e.g. eu-west-1), as its agent reports it (--region) or its registration said; null when unknown */
            region: string | null;
            /** @description requests per second the machine sustained in a calibration run, to judge how many machines a target load needs; null until one ran */
            benchmark_capacity: number | null;
            /** @description the load tools the agent last reported it can run here, by tool id; empty until an agent connects */
            tools: components["schemas"]["MachineTool"][];
        };
        /** MachineCreate */
        MachineCreate: {
            name: string;
            /** @description unique within the workspace (case-insensitive) */
            hostname: string;
            /** @description IPv4 or IPv6 address */
            ip_address: string | unknown | unknown;
            /**
             * @description linux (default), darwin, windows, freebsd, unknown, or an alias such as win32
             * @enum {string}
             */
            os?: "linux" | "darwin" | "macos" | "osx" | "windows" | "win32" | "freebsd" | "unknown";
            /**
             * @description x86_64 (default), arm64, arm, x86, unknown, or an alias such as amd64 or aarch64
             * @enum {string}
             */
            arch?: "x86_64" | "amd64" | "x64" | "arm64" | "aarch64" | "arm" | "armv7l" | "x86" | "i386" | "i686" | "ia32" | "unknown";
            /** @description 0 when unknown (default) */
            cpu_cores?: number;
            /** @description 0 when unknown (default) */
            memory_gb?: number;
            /** @description where the machine runs, e.g. eu-west-1: 1 to 64 letters, digits, '.', '_' or '-' (trimmed); empty or null: unknown (default). An agent that reports one replaces it */
            region?: string | null;
        };
        /** Threshold */
        Threshold: {
            /**
             * @description p50, p95, p99 (milliseconds), error_rate (fraction 0..1) or requests_per_sec
             * @enum {string}
             */
            metric: "p50" | "p95" | "p99" | "error_rate" | "requests_per_sec";
            /** @description an endpoint's name: checked on that endpoint's figures; an endpoint without figures fails the threshold (actual null) */
            endpoint?: string;
            /**
             * @description the figure must be <, <=, > or >= the value to pass
             * @enum {string}
             */
            op: "<" | "<=" | ">" | ">=";
            /** @description milliseconds, a fraction 0..1 (error_rate), or requests per second; finite */
            value: number;
            /** @description stop the run at once when this threshold fails while it runs (default false) */
            abort?: boolean;
        };
        /** Test */
        Test: {
            id: string;
            name: string;
            /** @description the tool id: k6, jmeter, locust, artillery, gatling, custom, http */
            tool: string;
            /**
             * @description draft, active, archived; default draft
             * @enum {string}
             */
            status: "draft" | "active" | "archived";
            script: string;
            /** @description pass/fail conditions on a run's merged figures, at most 50; each run copies them when it is created */
            thresholds: components["schemas"]["Threshold"][];
            baseline_task_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /** TestCreate */
        TestCreate: {
            name: string;
            /**
             * @description k6, jmeter, locust, artillery, gatling, custom, http
             * @enum {string}
             */
            tool: "k6" | "jmeter" | "locust" | "artillery" | "gatling" | "custom" | "http";
            /** @description script text, not blank, at most 1 MiB (UTF-8) */
            script: string;
            /**
             * @description draft, active, archived; default draft
             * @enum {string}
             */
            status?: "draft" | "active" | "archived";
            /** @description pass/fail conditions on a run's merged figures, at most 50; each run copies them when it is created; null or [] is none */
            thresholds?: components["schemas"]["Threshold"][] | null;
        };
        /**
         * TestPatch
         * @description any of name, script, status, thresholds (replaces the list; null or [] removes them); the tool cannot change
         */
        TestPatch: {
            name?: string;
            /** @description script text, not blank, at most 1 MiB (UTF-8) */
            script?: string;
            /**
             * @description draft, active, archived; default draft
             * @enum {string}
             */
            status?: "draft" | "active" | "archived";
            /** @description pass/fail conditions on a run's merged figures, at most 50; each run copies them when it is created; null or [] is none */
            thresholds?: components["schemas"]["Threshold"][] | null;
        };
        /** BaselineSet */
        BaselineSet: {
            /** @description a finished run (completed or failed) of this test: its UUID or public id */
            task_id: string;
        };
        /** TrendPoint */
        TrendPoint: {
            /** @description the task UUID */
            id: string;
            public_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            finished_at: string;
            /** @enum {string} */
            status: "completed" | "failed";
            verdict: ("passed" | "failed") | null;
            /** @description milliseconds, from the merged histogram of every machine */
            p50: number;
            /** @description milliseconds */
            p95: number;
            /** @description milliseconds */
            p99: number;
            /** @description errors / requests, fraction 0..1 */
            error_rate: number;
            /** @description requests per second over the measured window */
            requests_per_sec: number;
            /** @description requests of every machine */
            total_requests: number;
        };
        /** ApiToken */
        ApiToken: {
            id: string;
            name: string;
            /** @description empty: full access; else any of tests:read, tests:write, runs:read, runs:write, machines:read, machines:write, metrics:read */
            scopes: string[];
            expires_at: string | null;
            /** @description updated at most every few minutes */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            rotated_at: string | null;
            /** @description the first characters of the secret */
            prefix: string;
            user_id: string;
        };
        /** CreatedApiToken */
        CreatedApiToken: {
            id: string;
            name: string;
            /** @description empty: full access; else any of tests:read, tests:write, runs:read, runs:write, machines:read, machines:write, metrics:read */
            scopes: string[];
            expires_at: string | null;
            /** @description updated at most every few minutes */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            rotated_at: string | null;
            /** @description the first characters of the secret */
            prefix: string;
            user_id: string;
            /** @description psk_...; shown only here */
            token: string;
        };
        /** Workspace */
        Workspace: {
            id: string;
            name: string;
            plan: string;
            status: string;
            limits: {
                apiTokensPerUser: number;
                machines: number | null;
                tests: number | null;
                schedules: number | null;
                retentionDays: number;
                metricsRetentionDays: number;
                aiToolCallsPerMonth: number | null;
            };
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            permissions: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
        };
        /** Member */
        Member: {
            user_id: string;
            username: string | null;
            email: string | null;
            name: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            joined_at: string;
        };
        /** Invitation */
        Invitation: {
            id: string;
            /** @description the username or e-mail as the inviter typed it; nothing else is shown until the user accepts */
            user: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            /**
             * @description expired: not accepted within seven days (expires_at); the invitee no longer sees it, invite again to renew
             * @enum {string}
             */
            status: "pending" | "expired";
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            invited_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            expires_at: string;
        };
        /** AccessControls */
        AccessControls: {
            roles: {
                owner: string[];
                admin: string[];
                member: string[];
                viewer: string[];
            };
            permissions: string[];
        };
        /** AuditEntry */
        AuditEntry: {
            id: string;
            action: string;
            actor: {
                type: string;
                id: string | null;
                label: string | null;
                user_id: string | null;
            };
            target: {
                type: string;
                id: string | null;
                label: string | null;
            };
            details: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            time: string;
            workspace_id: string;
        };
        /** Usage */
        Usage: {
            /** @description the UTC calendar month, 'YYYY-MM' */
            period: string;
            /** @description AI (MCP) tool calls this month */
            ai_tool_calls: {
                used: number;
                limit: number | null;
            };
            machines: {
                used: number;
                limit: number | null;
            };
            tests: {
                used: number;
                limit: number | null;
            };
            /** @description what the workspace keeps in the database */
            storage: {
                /** @description UTF-8 bytes of the runs' stored log lines */
                log_bytes: number;
                /** @description estimated bytes of the stored run metric points and OTLP points: rows × the average stored row size of the workspace's newest rows; indexes not counted */
                metric_bytes: number;
            };
        };
        /** AiToolCallDeducted */
        AiToolCallDeducted: {
            /** @description the UTC calendar month, 'YYYY-MM' */
            period: string;
            /** @description calls counted this month, this one included */
            used: number;
            limit: number | null;
            remaining: number | null;
        };
        /** ReceivedInvitation */
        ReceivedInvitation: {
            id: string;
            workspace: {
                id: string;
                name: string;
            };
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            invited_by: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            invited_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            expires_at: string;
        };
        /** JoinedWorkspace */
        JoinedWorkspace: {
            workspace: {
                id: string;
                name: string;
            };
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            joined_at: string;
        };
        /** ThresholdResult */
        ThresholdResult: {
            /**
             * @description p50, p95, p99 (milliseconds), error_rate (fraction 0..1) or requests_per_sec
             * @enum {string}
             */
            metric: "p50" | "p95" | "p99" | "error_rate" | "requests_per_sec";
            /** @description an endpoint's name: checked on that endpoint's figures; an endpoint without figures fails the threshold (actual null) */
            endpoint?: string;
            /**
             * @description the figure must be <, <=, > or >= the value to pass
             * @enum {string}
             */
            op: "<" | "<=" | ">" | ">=";
            /** @description milliseconds, a fraction 0..1 (error_rate), or requests per second; finite */
            value: number;
            /** @description stop the run at once when this threshold fails while it runs (default false) */
            abort?: boolean;
            actual: number | null;
            ok: boolean;
        };
        /** Task */
        Task: {
            id: string;
            /** @description short id; addresses the task like its UUID */
            public_id: string;
            test_id: string;
            config_id: string | null;
            schedule_id: string | null;
            /** @description pending, running, completed, failed or cancelled */
            status: string;
            /** @description milliseconds; 0 until measured */
            p50: number;
            /** @description milliseconds */
            p95: number;
            /** @description milliseconds */
            p99: number;
            /** @description fraction 0..1 */
            error_rate: number;
            requests_per_sec: number;
            total_requests: number;
            /** @description the machines the run is on (requested, or chosen at dispatch); empty while a free one is awaited */
            machine_ids: string[];
            transport: string;
            error: string | null;
            verdict: ("passed" | "failed") | null;
            /** @description each of the run's thresholds (copied from its test when the run was created) with the figure it was checked on; empty until the run ends */
            threshold_results: components["schemas"]["ThresholdResult"][];
            pending_reason: string | null;
            log_url: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        /** OtelSeries */
        OtelSeries: {
            /** @description the metric name; histograms as <name>.count, .sum, .min, .max */
            name: string;
            unit: string;
            /** @description gauge, sum, histogram, exponential_histogram or summary */
            type: string;
            labels: {
                [key: string]: string;
            };
            /** @description [unix seconds, value], oldest first */
            points: number[][];
        };
        /** TaskOtel */
        TaskOtel: {
            metrics: components["schemas"]["OtelSeries"][];
        };
        /** TimeseriesPoint */
        TimeseriesPoint: {
            /** @description start of the bucket, unix seconds (the bucket covers [t, t + step)) */
            t: number;
            /** @description requests of every machine in the bucket, divided by the step */
            requests_per_sec: number;
            /** @description errors / requests in the bucket, fraction 0..1; 0 when it has no requests */
            error_rate: number;
            /** @description milliseconds, from the merged histogram of every machine in the bucket; 0 without requests */
            p50: number;
            /** @description milliseconds */
            p95: number;
            /** @description milliseconds */
            p99: number;
            /** @description virtual users summed across machines; 0 while agents do not report them with their intervals */
            vus: number;
        };
        /** TaskTimeseries */
        TaskTimeseries: {
            /** @description seconds: the step used, larger than the one asked when that would give too many points */
            step: number;
            /** @description oldest first, one per bucket from the first interval to the last (empty buckets included); empty before any interval */
            points: components["schemas"]["TimeseriesPoint"][];
        };
        /** TaskEndpointMinute */
        TaskEndpointMinute: {
            /** @description unix seconds: the start of the minute */
            t: number;
            /** @description the minute's requests of every machine over the seconds of it the run measured */
            requests_per_sec: number;
            /** @description errors / requests in the minute, fraction 0..1; 0 without requests */
            error_rate: number;
            /** @description milliseconds, from the merged histogram of every machine in the minute; 0 without requests */
            p95: number;
        };
        /** TaskEndpoint */
        TaskEndpoint: {
            /** @description the endpoint's name: the http tool's step name (default `METHOD path`), k6's `name` tag or URL, Locust's, JMeter's, Gatling's or Artillery's request name, a custom script's sample name; `(other)` holds every name past the first 200 */
            name: string;
            /** @description requests of every machine */
            requests: number;
            /** @description failed requests of every machine */
            errors: number;
            /** @description errors / requests, fraction 0..1 */
            error_rate: number;
            /** @description the endpoint's requests over the run's measured window (first sample of any machine to the last) */
            requests_per_sec: number;
            /** @description milliseconds, from the merged histogram of every machine (never averaged) */
            p50: number;
            /** @description milliseconds */
            p95: number;
            /** @description milliseconds */
            p99: number;
            /** @description milliseconds, the slowest request */
            max: number;
            /** @description only with `timeline=true`: one entry per minute from the run's first minute to its last, oldest first (zeros where the endpoint had no samples) */
            timeline?: components["schemas"]["TaskEndpointMinute"][];
        };
        /** TaskErrorGroup */
        TaskErrorGroup: {
            /** @description the endpoint name (empty when the tool did not name the request) */
            endpoint: string;
            /**
             * @description status: an answer with a failing status; network: no answer (refused, reset, timeout); check: a failed check or expectation; script: an error of the script
             * @enum {string}
             */
            kind: "status" | "network" | "check" | "script";
            /** @description the status code, the network error code, the check name ... */
            code: string;
            /** @description one message of the group, as a sample (cut at 300 characters) */
            message: string;
            /** @description failures of this endpoint, kind and code across machines */
            count: number;
        };
        /**
         * ComparedRun
         * @description a run's figures as GET /tasks/{id} shows them (0 until measured)
         */
        ComparedRun: {
            /** @description the task UUID */
            id: string;
            public_id: string;
            /** @description milliseconds, from the merged histogram of every machine */
            p50: number;
            /** @description milliseconds */
            p95: number;
            /** @description milliseconds */
            p99: number;
            /** @description errors / requests, fraction 0..1 */
            error_rate: number;
            /** @description requests per second over the measured window */
            requests_per_sec: number;
            /** @description requests of every machine */
            total_requests: number;
            verdict: ("passed" | "failed") | null;
        };
        /** FigureChanges */
        FigureChanges: {
            p50: number | null;
            p95: number | null;
            p99: number | null;
            error_rate: number | null;
            requests_per_sec: number | null;
        };
        /** EndpointComparison */
        EndpointComparison: {
            /** @description the endpoint name, matched between the runs */
            name: string;
            /** @description the base run's figures for the name; null when it has none */
            base: components["schemas"]["TaskEndpoint"] | null;
            /** @description the current run's figures for the name; null when it has none */
            current: components["schemas"]["TaskEndpoint"] | null;
            /** @description null unless both runs have the name */
            changes: components["schemas"]["FigureChanges"] | null;
        };
        /** RunComparison */
        RunComparison: {
            base: components["schemas"]["ComparedRun"];
            current: components["schemas"]["ComparedRun"];
            changes: components["schemas"]["FigureChanges"];
            /** @description every endpoint name of either run: the current run's first (most requests first), then those only the base has; `(other)` last */
            endpoints: components["schemas"]["EndpointComparison"][];
        };
        /** LoadConfig */
        LoadConfig: {
            id: string;
            name: string;
            vus: number | null;
            duration: string | null;
            stages: {
                /** @description e.g. 30s, 5m */
                duration: string;
                /** @description VUs at the end of the stage */
                target: number;
            }[] | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /** Schedule */
        Schedule: {
            id: string;
            test_id: string;
            /** @description five fields: minute hour day-of-month month day-of-week (e.g. "0 3 * * mon-fri"); values, ranges, steps (*\/15), lists, month and day names; when both day fields are restricted a day matches either (as Vixie cron reads them) */
            cron: string;
            /** @description canonical IANA name */
            timezone: string;
            config_id: string | null;
            /** @description machines its runs run on together; empty: one free machine */
            machine_ids: string[];
            enabled: boolean;
            next_run_at: string | null;
            last_task_id: string | null;
            last_run_at: string | null;
            last_error: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /** ScheduleCreate */
        ScheduleCreate: {
            /** @description a test of the workspace */
            test_id: string;
            /** @description five fields: minute hour day-of-month month day-of-week (e.g. "0 3 * * mon-fri"); values, ranges, steps (*\/15), lists, month and day names; when both day fields are restricted a day matches either (as Vixie cron reads them) */
            cron: string;
            /** @description IANA time zone the cron expression is read in (e.g. Europe/Berlin), default UTC. A time skipped when the clock moves forward runs when it jumps; a time repeated when it moves back runs once */
            timezone?: string;
            config_id?: string | null;
            /** @description machines of the workspace to run on together; default: one free machine */
            machine_ids?: string[];
            /** @description default true; a disabled schedule never fires */
            enabled?: boolean;
        };
        /**
         * ScheduleChange
         * @description any of the fields; a new cron or timezone, or enabling it again, sets next_run_at from now (what it missed meanwhile never runs)
         */
        ScheduleChange: {
            /** @description a test of the workspace */
            test_id?: string;
            /** @description five fields: minute hour day-of-month month day-of-week (e.g. "0 3 * * mon-fri"); values, ranges, steps (*\/15), lists, month and day names; when both day fields are restricted a day matches either (as Vixie cron reads them) */
            cron?: string;
            /** @description IANA time zone the cron expression is read in (e.g. Europe/Berlin), default UTC. A time skipped when the clock moves forward runs when it jumps; a time repeated when it moves back runs once */
            timezone?: string;
            config_id?: string | null;
            /** @description machines of the workspace to run on together; default: one free machine */
            machine_ids?: string[];
            /** @description default true; a disabled schedule never fires */
            enabled?: boolean;
        };
        /** Actor */
        Actor: {
            /** @description user or token */
            type: string;
            id: string | null;
            label: string | null;
            user_id: string | null;
        };
        /**
         * EnvVar
         * @description the value is never returned
         */
        EnvVar: {
            key: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
            updated_by: components["schemas"]["Actor"];
        };
        /** EnvVarPut */
        EnvVarPut: {
            /** @description at most 8192 bytes (UTF-8), no NUL; masked as *** in run logs when 4 characters or longer */
            value: string;
        };
        /** DashboardPanel */
        DashboardPanel: {
            title: string;
            /** @description a metric query as GET /metrics/query takes it: a query string (metric=...&step=...) or an object of its parameters; at most 8192 bytes. Stored as given; the query endpoint runs it */
            query: string | {
                [key: string]: unknown;
            };
            /**
             * @description line, area, bar, stat, table, heatmap
             * @enum {string}
             */
            chart: "line" | "area" | "bar" | "stat" | "table" | "heatmap";
        };
        /** Dashboard */
        Dashboard: {
            id: string;
            name: string;
            panels: components["schemas"]["DashboardPanel"][];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /**
         * DashboardCreate
         * @description panels default to none
         */
        DashboardCreate: {
            name: string;
            panels?: components["schemas"]["DashboardPanel"][];
        };
        /**
         * DashboardReplace
         * @description panels default to none
         */
        DashboardReplace: {
            name: string;
            panels?: components["schemas"]["DashboardPanel"][];
        };
        /** GitRepo */
        GitRepo: {
            id: string;
            url: string;
            branch: string;
            /** @description the directory synced ('' is the whole repository) */
            path: string;
            /** @description credentials are stored (never shown) */
            has_credentials: boolean;
            /** @description never, queued, syncing, synced or failed */
            sync_status: string;
            last_commit: string | null;
            last_synced_at: string | null;
            last_error: string | null;
            last_result: {
                files: number;
                created: number;
                updated: number;
                unchanged: number;
                /** @description tests whose file is gone upstream */
                archived: number;
                skipped: {
                    path: string;
                    reason: string;
                }[];
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /** GitRepoCreate */
        GitRepoCreate: {
            /**
             * Format: uri
             * @description http(s) URL of the repository, without credentials; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS
             */
            url: string;
            /** @description default main */
            branch?: string;
            /** @description directory inside the repository whose test files are synced (default: the whole repository); at most 200 test files */
            path?: string;
            credentials?: {
                /** @description default git */
                username?: string;
                /** @description a password or an access token */
                password: string;
            } | null;
        };
        /** GitRepoPatch */
        GitRepoPatch: {
            /**
             * Format: uri
             * @description http(s) URL of the repository, without credentials; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS
             */
            url?: string;
            /** @description default main */
            branch?: string;
            /** @description directory inside the repository whose test files are synced (default: the whole repository); at most 200 test files */
            path?: string;
            credentials?: {
                /** @description default git */
                username?: string;
                /** @description a password or an access token */
                password: string;
            } | null;
        };
        /** McpServer */
        McpServer: {
            id: string;
            /** @description the prefix of the server's tools: <name>__<tool> */
            name: string;
            url: string;
            /** @description lower-case names of the stored headers; their values are never shown */
            header_names: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
        };
        /** McpServerCreate */
        McpServerCreate: {
            /** @description a lower-case letter, then up to 31 lower-case letters, digits, _ or - (no "__"); unique in the workspace */
            name: string;
            /**
             * Format: uri
             * @description http(s) URL of the server's streamable-HTTP endpoint; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS
             */
            url: string;
            /** @description headers sent with every request to the server, e.g. {"authorization": "Bearer ..."}; stored encrypted, never shown; at most 20; names are HTTP field names (compared without case; the transport's own, such as content-type or mcp-session-id, are refused), values visible ASCII */
            headers?: {
                [key: string]: string;
            };
        };
        /** McpServerPatch */
        McpServerPatch: {
            /** @description a lower-case letter, then up to 31 lower-case letters, digits, _ or - (no "__"); unique in the workspace */
            name?: string;
            /**
             * Format: uri
             * @description http(s) URL of the server's streamable-HTTP endpoint; private, loopback and link-local hosts need WEBHOOK_ALLOW_HOSTS
             */
            url?: string;
            /** @description merged into the stored headers: a value sets that header, null removes it, headers not named stay; at most 20; names are HTTP field names (compared without case; the transport's own, such as content-type or mcp-session-id, are refused), values visible ASCII */
            headers?: {
                [key: string]: string | null;
            };
        };
        /** RemoteMcpTool */
        RemoteMcpTool: {
            /** @description the server name */
            server: string;
            /** @description the server id, for POST /mcp-servers/{id}/call */
            server_id: string;
            /** @description the tool's name on its server (what /call takes) */
            name: string;
            /** @description <server>__<name>: the name to offer the tool under */
            prefixed_name: string;
            title?: string;
            description: string;
            input_schema: {
                [key: string]: unknown;
            };
            output_schema?: {
                [key: string]: unknown;
            };
            annotations?: {
                [key: string]: unknown;
            };
        };
        /** RemoteMcpToolList */
        RemoteMcpToolList: {
            /** @description by server name, each server's tools in its order (at most 100 a server) */
            tools: components["schemas"]["RemoteMcpTool"][];
            /** @description servers that failed to list their tools in time; the others are listed all the same */
            skipped: {
                server: string;
                server_id: string;
                /** @description why it was skipped: unreachable, too slow, refused address, HTTP or protocol error */
                reason: string;
            }[];
        };
        /** RemoteMcpCall */
        RemoteMcpCall: {
            /** @description the tool's name on its server (not the prefixed name) */
            tool: string;
            /** @description the tool's arguments, as its input_schema says (default {}) */
            arguments?: {
                [key: string]: unknown;
            };
        };
        /**
         * RemoteMcpCallResult
         * @description the MCP CallToolResult of the remote server, plus truncated
         */
        RemoteMcpCallResult: {
            /** @description MCP content items as the server sent them (text, image, resource ...) */
            content: unknown[];
            structuredContent?: {
                [key: string]: unknown;
            };
            /** @description the tool reported an error (its content says which) */
            isError: boolean;
            /** @description the result was larger than 1 MiB and was cut; the last content item says what was left out */
            truncated: boolean;
        };
        /** MetricCatalogEntry */
        MetricCatalogEntry: {
            name: string;
            unit: string;
            description: string;
            labels: {
                name: string;
                values: string[];
            }[];
        };
        /** MetricQueryResult */
        MetricQueryResult: {
            metric: string;
            unit: string;
            /** @description unix seconds */
            start: number;
            /** @description unix seconds */
            end: number;
            /** @description seconds; a point at t covers (t - step, t] */
            step: number;
            by: string[];
            series: {
                labels: {
                    [key: string]: string;
                };
                points: number[][];
            }[];
        };
        /** MetricQueryColumns */
        MetricQueryColumns: {
            metric: string;
            unit: string;
            /** @description unix seconds */
            start: number;
            /** @description unix seconds */
            end: number;
            /** @description seconds; a point at t covers (t - step, t] */
            step: number;
            by: string[];
            /** @description unix seconds, oldest first, shared by every series; a time no series has marks a gap */
            times: number[];
            series: {
                labels: {
                    [key: string]: string;
                };
                /** @description one per time: the value, or null */
                values: (number | null)[];
            }[];
        };
        /**
         * PrometheusAnswer
         * @description Prometheus' JSON envelope
         */
        PrometheusAnswer: {
            /** @description success or error */
            status: string;
            data?: unknown;
            errorType?: string;
            error?: string;
        };
        /** Webhook */
        Webhook: {
            id: string;
            url: string;
            description: string | null;
            events: ("test.started" | "test.completed" | "test.failed")[];
            enabled: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
            secret_rotated_at: string | null;
        };
        /** CreatedWebhook */
        CreatedWebhook: {
            id: string;
            url: string;
            description: string | null;
            events: ("test.started" | "test.completed" | "test.failed")[];
            enabled: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
            secret_rotated_at: string | null;
            /** @description whsec_...; shown only here */
            secret: string;
        };
        /** WebhookAttempt */
        WebhookAttempt: {
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            attempted_at: string;
            /** @description success or failure */
            outcome: string;
            status_code: number | null;
            duration_ms: number;
            error: string | null;
            response_excerpt: string | null;
        };
        /** WebhookDelivery */
        WebhookDelivery: {
            /** @description X-Service-Delivery */
            id: string;
            webhook_id: string;
            event: string;
            /** @description the body sent, byte for byte as serialised here */
            envelope: {
                id: string;
                event: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC, ending in Z
                 */
                created_at: string;
                tenant_id: string;
                data: {
                    [key: string]: unknown;
                };
            };
            /** @description waiting, delivered or failed */
            state: string;
            attempt_count: number;
            next_attempt_at: string | null;
            redelivery_of: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC, ending in Z
             */
            updated_at: string;
            /** @description newest first */
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        /** NotificationPreferences */
        NotificationPreferences: {
            email: {
                /** @description an e-mail when a run of this workspace fails */
                on_failed: boolean;
                /** @description an e-mail when a run completes */
                on_completed: boolean;
            };
        };
        /** Error */
        Error: {
            /** @description machine-readable code, e.g. not_found */
            error: string;
            /** @description human-readable explanation */
            message: string;
        };
    };
    responses: {
        /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description unauthorized or token_expired: no bearer token, or one that is invalid, revoked or expired */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description forbidden, insufficient_scope, workspace_suspended, plan_no_api_access or plan_limit_*: the role, token scopes or plan do not allow this */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description not_found: no such resource in this workspace (ids of other workspaces too), or an X-Workspace-Id the caller does not belong to */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description conflict or last_owner: the change conflicts with the current state */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description payload_too_large: the request body is over the limit (MAX_BODY_BYTES) */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description unsupported_media_type: a request body that is not application/json */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description upgrade_required: a WebSocket endpoint answered a plain GET */
        UpgradeRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description too_many_pending_tasks: the workspace has as many pending tasks as its plan allows; too_many_failed_lookups: this address sent too many unknown or revoked API tokens in the last minute; ai_budget_exhausted: the workspace used its AI tool calls of this month (Retry-After says when to try again) */
        TooManyRequests: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description bad_gateway: a remote server the service called for this request (a remote MCP server) failed or did not answer in time; the message says why */
        BadGateway: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
        };
    };
    getAssistant: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        configured: boolean;
                        enabled: boolean;
                        source: ("workspace" | "service") | null;
                        model: string | null;
                        /** @description when not configured: how to set a model */
                        message?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAssistantSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_url: string | null;
                        model: string | null;
                        /** @description the key itself is never answered */
                        api_key_set: boolean;
                        enabled: boolean;
                        updated_at: string | null;
                        service: {
                            configured: boolean;
                            model: string | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putAssistantSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    api_url?: string | null;
                    model?: string | null;
                    api_key?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_url: string | null;
                        model: string | null;
                        /** @description the key itself is never answered */
                        api_key_set: boolean;
                        enabled: boolean;
                        updated_at: string | null;
                        service: {
                            configured: boolean;
                            model: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postAssistantChat: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    messages: {
                        role: "user" | "assistant";
                        content: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Identity"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAuthMeWorkspaces: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MyWorkspace"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMachines: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Machine"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postMachines: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MachineCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Machine"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMachinesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Machine"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteMachinesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postMachinesByIdCalibrate: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Machine"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTests: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Test"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postTests: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Test"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTestsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Test"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteTestsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchTestsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Test"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putTestsByIdBaseline: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BaselineSet"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Test"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteTestsByIdBaseline: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTestsByIdTrend: {
        parameters: {
            query?: {
                /** @description runs, 1..200 (default 20); empty means the default */
                limit?: number | string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrendPoint"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getApiTokens: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiToken"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postApiTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description omit or [] for full access */
                    scopes?: ("tests:read" | "tests:write" | "runs:read" | "runs:write" | "machines:read" | "machines:write" | "metrics:read")[];
                    expires_at?: string | null;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteApiTokensById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postApiTokensByIdRotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description the new psk_ secret, shown once */
                        token: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @enum {string} */
                    plan?: "starter" | "scale" | "enterprise";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMembers: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description exact username, or an e-mail the identity provider verified, of a user who has signed in once */
                    user: string;
                    /** @enum {string} */
                    role: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteMembersByUserId: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchMembersByUserId: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAccessControls: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessControls"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putAccessControls: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description admin, member and/or viewer: the complete permission list each should hold (owners hold all) */
                    roles: {
                        admin?: ("manage_api_tokens" | "run_tests" | "manage_tests" | "manage_machines" | "manage_webhooks" | "manage_mcp_servers" | "manage_members" | "manage_billing" | "view_audit_log")[];
                        member?: ("manage_api_tokens" | "run_tests" | "manage_tests" | "manage_machines" | "manage_webhooks" | "manage_mcp_servers" | "manage_members" | "manage_billing" | "view_audit_log")[];
                        viewer?: ("manage_api_tokens" | "run_tests" | "manage_tests" | "manage_machines" | "manage_webhooks" | "manage_mcp_servers" | "manage_members" | "manage_billing" | "view_audit_log")[];
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessControls"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAuditLog: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
                /** @description only entries of this action, e.g. test.created */
                action?: string;
                /** @description only this actor's entries: a user or token id, or its name (case-insensitive) */
                actor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntry"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postUsageAiToolCalls: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiToolCallDeducted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMembersInvitations: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteMembersInvitationsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAuthMeInvitations: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceivedInvitation"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postAuthMeInvitationsByIdAccept: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JoinedWorkspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteAuthMeInvitationsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasks: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
                /** @description only this test's runs (its id) */
                test_id?: string;
                /** @description only runs in this status: pending, running, completed, failed, cancelled */
                status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                /** @description only runs on this machine (assigned to it, or asked for while pending) */
                machine_id?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postTasks: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    testId: string;
                    /**
                     * @description default sse; long_polling falls back to sse
                     * @enum {string}
                     */
                    transport?: "sse" | "ws" | "long_polling";
                    /** @description machines to run on together; default: one free machine */
                    machineIds?: string[];
                    /** @description a load configuration (vus/duration or stages) */
                    configId?: string;
                    /** @description seconds the task may wait for a free machine before it fails (default: the service setting, none) */
                    pendingTimeout?: number;
                };
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        public_id: string;
                        /** @constant */
                        status: "pending";
                        pending_reason: string | null;
                        /** @description by machine id (or "pending" while no machine is assigned): where to follow the run live */
                        stream: {
                            [key: string]: {
                                url: string;
                                transport: string;
                            };
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Task"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteTasksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdLogStream: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdOtel: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
                /** @description only the series of this metric name (exact) */
                metric?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskOtel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdTimeseries: {
        parameters: {
            query?: {
                /** @description bucket length in whole seconds, 1..3600; empty or absent: chosen so the run has at most about 500 points */
                step?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskTimeseries"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdEndpoints: {
        parameters: {
            query?: {
                /** @description true: each row also carries its minutes (`timeline`), for sparklines and charts per endpoint */
                timeline?: "true" | "false";
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskEndpoint"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdErrors: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskErrorGroup"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdCompare: {
        parameters: {
            query: {
                /** @description the run to compare with (the base): its UUID or public id, or `baseline` for the baseline of the run's test */
                with: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunComparison"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postOtlpV1Metrics: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-protobuf": string;
                "application/json": {
                    resourceMetrics?: Record<string, never>[] | null;
                };
            };
        };
        responses: {
            /** @description stored (all, or all but the data points partialSuccess counts) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-protobuf": string;
                    "application/json": {
                        partialSuccess?: {
                            /** @description int64 as a decimal string (OTLP JSON mapping) */
                            rejectedDataPoints?: string;
                            errorMessage?: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getConfigs: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadConfig"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postConfigs: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description with duration */
                    vus?: number;
                    /** @description with vus, e.g. 30s, 5m, 1h30m; more than 0s, at most 24h */
                    duration?: string;
                    /** @description instead of vus + duration; more than 0s and at most 24h in all, some target above 0 */
                    stages?: {
                        /** @description e.g. 30s, 5m */
                        duration: string;
                        /** @description VUs at the end of the stage */
                        target: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getConfigsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadConfig"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteConfigsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchConfigsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description with duration */
                    vus?: number;
                    /** @description with vus, e.g. 30s, 5m, 1h30m; more than 0s, at most 24h */
                    duration?: string;
                    /** @description instead of vus + duration; more than 0s and at most 24h in all, some target above 0 */
                    stages?: {
                        /** @description e.g. 30s, 5m */
                        duration: string;
                        /** @description VUs at the end of the stage */
                        target: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getSchedules: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postSchedules: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getSchedulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteSchedulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchSchedulesById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleChange"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getEnvVars: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVar"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putEnvVarsByKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description an environment variable name (letters, digits, _; not starting with a digit), at most 128 characters. Reserved (400 naming the rule): what the agent sets (PATH, HOME, LANG, TZ, LC_*, TERM ...), LOADPLANE_*, and every name the C library or loader (LD_*, GCONV_PATH, TMPDIR ...), a shell (BASH*, ENV, IFS, SHELLOPTS, PS1-PS4 ...), an interpreter or runtime (PYTHON*, PERL*, RUBY*, NODE_*, JAVA_*, CLASSPATH ...) or a load engine (K6_*, LOCUST_*, JMETER_*, GATLING_*, ARTILLERY_*) reads */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnvVarPut"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVar"];
                };
            };
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVar"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteEnvVarsByKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the variable name; a reserved name stored before its rule can still be deleted */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getDashboards: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postDashboards: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getDashboardsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putDashboardsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardReplace"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteDashboardsById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getGitRepos: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitRepo"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postGitRepos: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GitRepoCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitRepo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getGitReposById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitRepo"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteGitReposById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchGitReposById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GitRepoPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitRepo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postGitReposByIdSync: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GitRepo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMcpServers: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postMcpServers: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpServerCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMcpServersById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteMcpServersById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchMcpServersById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpServerPatch"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMcpServersTools: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemoteMcpToolList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postMcpServersByIdCall: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RemoteMcpCall"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RemoteMcpCallResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            502: components["responses"]["BadGateway"];
        };
    };
    getMetricsCatalog: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetricCatalogEntry"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMetricsQuery: {
        parameters: {
            query: {
                /** @description one of requests, request_rate, errors, error_rate, error_ratio, latency_p50, latency_p95, latency_p99, latency_mean, latency_max */
                metric: string;
                /** @description unix seconds, RFC 3339, now or -<duration> (default: end - 1h) */
                start?: string;
                /** @description unix seconds, RFC 3339, now or -<duration> (default: now) */
                end?: string;
                /** @description a duration such as 10s or 1m, or seconds; at least 1s, at most 11,000 steps (default: range/250) */
                step?: string;
                /** @description comma-separated labels that split series (run, machine, test); default run; empty: one series */
                by?: string;
                /** @description points (default): each series as `[unix seconds, value]` pairs; columns: the series aligned on shared `times`, each with its `values` (null where it has none) */
                format?: "points" | "columns";
                /** @description filter on run: `value`, `!value`, `~regex` or `!~regex` (anchored); repeatable */
                run?: string;
                /** @description filter on machine: `value`, `!value`, `~regex` or `!~regex` (anchored); repeatable */
                machine?: string;
                /** @description filter on test: `value`, `!value`, `~regex` or `!~regex` (anchored); repeatable */
                test?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetricQueryResult"] | components["schemas"]["MetricQueryColumns"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPrometheusApiV1Query: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postPrometheusApiV1Query: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    query?: string;
                    time?: string;
                    start?: string;
                    end?: string;
                    step?: string;
                    "match[]"?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPrometheusApiV1QueryRange: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postPrometheusApiV1QueryRange: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    query?: string;
                    time?: string;
                    start?: string;
                    end?: string;
                    step?: string;
                    "match[]"?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPrometheusApiV1Labels: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postPrometheusApiV1Labels: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    query?: string;
                    time?: string;
                    start?: string;
                    end?: string;
                    step?: string;
                    "match[]"?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPrometheusApiV1LabelByNameValues: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postPrometheusApiV1LabelByNameValues: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    query?: string;
                    time?: string;
                    start?: string;
                    end?: string;
                    step?: string;
                    "match[]"?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPrometheusApiV1Series: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postPrometheusApiV1Series: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    query?: string;
                    time?: string;
                    start?: string;
                    end?: string;
                    step?: string;
                    "match[]"?: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            /** @description bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrometheusAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description http(s); private, loopback and link-local targets need WEBHOOK_ALLOW_HOSTS
                     */
                    url: string;
                    events: ("test.started" | "test.completed" | "test.failed")[];
                    description?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done; no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    patchWebhooksById: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description http(s); private, loopback and link-local targets need WEBHOOK_ALLOW_HOSTS
                     */
                    url?: string;
                    events?: ("test.started" | "test.completed" | "test.failed")[];
                    description?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postWebhooksByIdRotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description the new whsec_ secret, shown once */
                        secret: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postWebhooksByIdTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWebhooksByIdDeliveries: {
        parameters: {
            query?: {
                /** @description page size, 1 to 1000 (default 100); empty means the default */
                limit?: number | string;
                /** @description X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page */
                cursor?: string;
            };
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description the resource id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description present when more rows remain: `<next page URL>; rel="next"` */
                    Link?: string;
                    /** @description present when more rows remain: the cursor of the next page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    postWebhooksByIdDeliveriesByDeliveryIdRedeliver: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getNotificationPreferences: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    putNotificationPreferences: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationPreferences"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreferences"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getTasksByIdWs: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path: {
                /** @description task UUID or public id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the WebSocket is open */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            426: components["responses"]["UpgradeRequired"];
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404 */
                "X-Workspace-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the WebSocket is open */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            426: components["responses"]["UpgradeRequired"];
        };
    };
}
