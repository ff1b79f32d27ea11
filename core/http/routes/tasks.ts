/** /tasks: start, list, read and cancel runs, and follow one live over SSE (`log-stream`) or WebSocket (`ws`). */
import { Elysia, t } from 'elysia';
import { badRequest, DomainError } from '../../kernel/errors.ts';
import { TaskAssignment } from '../../domain/entities/task-assignment.ts';
import { isTerminal } from '../../domain/run-state.ts';
import { jsonOf } from '../../services/runs/event-json.ts';
import type { TaskEvent } from '../../services/runs/task-events.ts';
import type { TaskListFilter } from '../../services/runs/tasks.ts';
import { isUuid } from '../../services/workspace-scope.ts';
import { toTaskView } from '../../services/runs/task-view.ts';
import { errorResponse } from '../error-mapper.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { enforcePolicy } from '../route-policy.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, IdParams, Integer, Timestamp } from '../schemas/common.ts';
import { literalUnion } from '../schemas/literal-union.ts';
import { ThresholdResult } from '../schemas/test-definition.ts';
import { sseResponse } from '../sse-response.ts';
import { startKeepAlive } from '../ws-keep-alive.ts';

const PendingReason = t.Nullable(
  t.String({
    description:
      'why a pending task waits, in words (e.g. "no machine of this workspace is online", "no online machine offers k6: ...", ' +
      '"machine gen-2 is offline", "waiting for a free machine (3 tasks ahead)": older pending tasks of the workspace for the same tool); null once it runs',
  }),
);

const TaskView = t.Object(
  {
    id: t.String(),
    public_id: t.String({ description: 'short id; addresses the task like its UUID' }),
    test_id: t.String(),
    config_id: t.Nullable(t.String()),
    schedule_id: t.Nullable(t.String({ description: 'the schedule that started this run; null for a run started by hand' })),
    status: t.String({ description: 'pending, running, completed, failed or cancelled' }),
    p50: t.Number({ description: 'milliseconds; 0 until measured' }),
    p95: t.Number({ description: 'milliseconds' }),
    p99: t.Number({ description: 'milliseconds' }),
    error_rate: t.Number({ description: 'fraction 0..1' }),
    requests_per_sec: t.Number(),
    total_requests: Integer(),
    machine_ids: t.Array(t.String(), { description: 'the machines the run is on (requested, or chosen at dispatch); empty while a free one is awaited' }),
    transport: t.String(),
    error: t.Nullable(t.String({ description: 'why it failed; failed thresholds read "thresholds failed: p95 < 200 (actual 312.4)"' })),
    verdict: t.Nullable(
      literalUnion(['passed', 'failed'] as const, {
        description: "the thresholds' verdict once the run ended: null when its test had none, or the run was cancelled or never started",
      }),
    ),
    threshold_results: t.Array(ThresholdResult, {
      description: "each of the run's thresholds (copied from its test when the run was created) with the figure it was checked on; empty until the run ends",
    }),
    pending_reason: PendingReason,
    log_url: t.String(),
    created_at: Timestamp,
    started_at: t.Nullable(Timestamp),
    finished_at: t.Nullable(Timestamp),
  },
  { title: 'Task' },
);

const StartBody = t.Object(
  {
    testId: t.String({ minLength: 1 }),
    transport: t.Optional(literalUnion(['sse', 'ws', 'long_polling'] as const, { description: 'default sse; long_polling falls back to sse' })),
    machineIds: t.Optional(t.Array(t.String(), { maxItems: 50, description: 'machines to run on together; default: one free machine' })),
    configId: t.Optional(t.String({ description: 'a load configuration (vus/duration or stages)' })),
    pendingTimeout: t.Optional(
      Integer({ minimum: 1, maximum: 30 * 86_400, description: 'seconds the task may wait for a free machine before it fails (default: the service setting, none)' }),
    ),
  },
  { additionalProperties: false },
);

/** Last-Event-ID (header) or ?after= (query): the id of the last log event the client has. */
function resumeFrom(request: Request): number | null {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after');
  if (raw === null || raw === '' || raw === 'end') return null;
  return /^\d+$/.test(raw) ? Number(raw) : null;
}

/** Whether the stream's caller may still follow the task: its token still valid, its rights and membership unchanged. */
async function stillAllowed(deps: RouteDeps, request: Request, route: string, taskId: string): Promise<boolean> {
  try {
    const caller = await deps.authenticate(request);
    enforcePolicy(caller, 'GET', route);
    return (await deps.tasks.find(caller, taskId)).id === taskId;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

const taskStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

const TaskListQuery = t.Composite(
  [
    PageQuery,
    t.Object({
      // Strings at runtime so a bad value gets our own message naming it; the document states the real shape.
      test_id: t.Optional(t.String({ description: "only this test's runs (its id)", ...documented({ format: 'uuid' }) })),
      status: t.Optional(t.String({ description: `only runs in this status: ${taskStatuses.join(', ')}`, ...documented({ enum: [...taskStatuses] }) })),
      machine_id: t.Optional(
        t.String({ description: 'only runs on this machine (assigned to it, or asked for while pending)', ...documented({ format: 'uuid' }) }),
      ),
    }),
  ],
  { additionalProperties: true },
);

/** The list's filters from the query: a malformed id or an unknown status is a 400 that names it, not an empty page. */
function taskListFilterOf(query: { test_id?: string; status?: string; machine_id?: string }): TaskListFilter {
  const filter: TaskListFilter = {};
  for (const [name, value] of [['test_id', query.test_id], ['machine_id', query.machine_id]] as const) {
    if (!value) continue;
    if (!isUuid(value.trim())) throw badRequest(`${name} must be a UUID; got ${JSON.stringify(value.slice(0, 80))}`, { field: name });
    if (name === 'test_id') filter.testId = value.trim();
    else filter.machineId = value.trim();
  }
  if (query.status) {
    if (!(taskStatuses as readonly string[]).includes(query.status)) {
      throw badRequest(`status must be one of ${taskStatuses.join(', ')}; got ${JSON.stringify(query.status.slice(0, 80))}`, { field: 'status' });
    }
    filter.status = query.status;
  }
  return filter;
}

const maxBufferedBytes = 4 * 1024 * 1024;

export const taskRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/tasks', detail: { tags: ['Tasks'], security: bearerSecurity } })
    .ws('/:id/ws', {
      // Authentication, policy and id resolution before the upgrade: a failure answers JSON with 401/403/404.
      async beforeHandle({ request, params }) {
        try {
          const caller = await deps.authenticate(request);
          enforcePolicy(caller, 'GET', '/api/v1/tasks/:id/ws');
          await deps.tasks.find(caller, params.id);
        } catch (error) {
          if (error instanceof DomainError) return errorResponse(error);
          throw error;
        }
      },
      async open(ws) {
        // The upgrade request's query (?after=) and headers (Last-Event-ID), as the SSE route reads them.
        const query = new URLSearchParams((ws.data.query ?? {}) as Record<string, string>);
        const request = new Request(`http://localhost/?${query}`, { headers: ws.data.headers as Record<string, string> });
        let taskId: string;
        let seenRunning: boolean;
        try {
          // Checked before the upgrade already; this only fails if the token died in between.
          const caller = await deps.authenticate(request);
          const task = await deps.tasks.find(caller, (ws.data.params as { id: string }).id);
          taskId = task.id;
          seenRunning = !isTerminal(task.status);
        } catch {
          ws.close(1008, 'not authorized');
          return;
        }
        const raw = ws.raw as unknown as { getBufferedAmount?: () => number; data: Record<string, unknown> };
        // The spec's keep-alive: pings about every 30 s, a client with a stale pong is cut (1001).
        const pinger = startKeepAlive(ws, deps.wsKeepAlive);
        raw.data.onPong = pinger.pong;
        const forget = deps.live.add({
          stillAllowed: () => stillAllowed(deps, request, '/api/v1/tasks/:id/ws', taskId),
          close: () => {
            pinger.stop();
            ws.close(1008, 'access revoked');
          },
        });
        const stop = await deps.streams.follow(
          taskId,
          resumeFrom(request),
          {
            send(events: readonly TaskEvent[]) {
              for (const event of events) ws.send(jsonOf(event));
              return (raw.getBufferedAmount?.() ?? 0) < maxBufferedBytes;
            },
            end(reason) {
              pinger.stop();
              forget();
              if (reason === 'done') ws.close(1000, 'done');
              else if (reason === 'revoked') ws.close(1008, 'access revoked');
              else ws.close(1013, 'the client did not keep up');
            },
          },
          seenRunning,
        );
        raw.data.onClose = () => {
          pinger.stop();
          forget();
          stop();
        };
      },
      pong(ws) {
        // Elysia hands `pong` Bun's own socket, not its wrapper with `raw` (reading `ws.raw` here found nothing, so
        // no pong ever counted and every client was cut after the stale limit); both carry the upgrade's `data`.
        const socket = ((ws as { raw?: unknown }).raw ?? ws) as { data?: { onPong?: () => void } };
        socket.data?.onPong?.();
      },
      close(ws) {
        (ws.raw as unknown as { data?: { onClose?: () => void } } | undefined)?.data?.onClose?.();
      },
      // OpenAPI has no WebSocket operation: documented as GET with 101 in api-docs.ts.
      detail: { hide: true },
    })
    .use(requireCaller(deps.authenticate))
    .get(
      '',
      (context) => {
        const filter = taskListFilterOf(context.query);
        return pagedList(context, (page) => deps.tasks.list(context.caller, page, filter), (task) => toTaskView(task, deps.publicUrl));
      },
      {
        query: TaskListQuery,
        response: { 200: t.Array(TaskView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Tasks of the workspace, newest created first' },
      },
    )
    .post(
      '',
      async ({ caller, body, set }) => {
        const task = await deps.tasks.start(caller, body);
        const assigned = (await deps.db.fork().find(TaskAssignment, { taskId: task.id })).map((a) => a.machineId);
        const machineIds = assigned.length ? assigned : task.requestedMachineIds.length ? task.requestedMachineIds : ['pending'];
        const path = task.transport === 'ws' ? 'ws' : 'log-stream';
        const base = task.transport === 'ws' ? deps.publicUrl.replace(/^http/, 'ws') : deps.publicUrl;
        const url = `${base}/api/v1/tasks/${task.id}/${path}`;
        set.status = 202;
        return {
          id: task.id,
          public_id: task.publicId,
          status: 'pending' as const,
          pending_reason: task.status === 'pending' ? (task.pendingReason ?? null) : null,
          stream: Object.fromEntries(machineIds.map((machineId) => [machineId, { url, transport: task.transport }])),
        };
      },
      {
        body: StartBody,
        response: {
          202: t.Object({
            id: t.String(),
            public_id: t.String(),
            status: t.Literal('pending'),
            pending_reason: PendingReason,
            stream: t.Record(t.String(), t.Object({ url: t.String(), transport: t.String() }), {
              description: 'by machine id (or "pending" while no machine is assigned): where to follow the run live',
            }),
          }),
          400: errorResponses[400],
          401: errorResponses[401],
          403: errorResponses[403],
          404: errorResponses[404],
          429: errorResponses[429],
        },
        detail: { summary: 'Start a test: 202 with the task id; follow progress with GET /tasks/:id' },
      },
    )
    .get('/:id', async ({ caller, params }) => toTaskView(await deps.tasks.find(caller, params.id), deps.publicUrl), {
      params: IdParams,
      response: { 200: TaskView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'A task by UUID or public id' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.tasks.cancel(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Cancel a pending or running task (the agent kills the whole process tree)' },
      },
    )
    .get(
      '/:id/log-stream',
      async ({ caller, params, request }) => {
        const task = await deps.tasks.find(caller, params.id);
        return sseResponse(async (sink) => {
          let stop = () => {};
          const forget = deps.live.add({
            stillAllowed: () => stillAllowed(deps, request, '/api/v1/tasks/:id/log-stream', task.id),
            close: () => {
              stop();
              sink.end('revoked');
            },
          });
          stop = await deps.streams.follow(
            task.id,
            resumeFrom(request),
            {
              send: (events) => sink.send(events),
              end(reason) {
                forget();
                sink.end(reason);
              },
              note: (text) => sink.note?.(text),
            },
            !isTerminal(task.status),
          );
          return () => {
            forget();
            stop();
          };
        });
      },
      {
        params: IdParams,
        response: { 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: 'Follow a task over SSE: one JSON task event per data: frame; Last-Event-ID resumes; a finished task answers a single done event',
          responses: { 200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
        },
      },
    );
