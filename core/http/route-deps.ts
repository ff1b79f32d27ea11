/** What every route group receives: services, the authenticator and the database. */
import type { HookBus } from '../kernel/hook-bus.ts';
import type { KernelHooks } from '../kernel/hooks.ts';
import type { Database } from '../ports/database.ts';
import type { AccessControlService } from '../services/access-controls.ts';
import type { ApiTokenService } from '../services/api-tokens.ts';
import type { MachineService } from '../services/machines.ts';
import type { InvitationService } from '../services/member-invitations.ts';
import type { MemberService } from '../services/members.ts';
import type { TestDefinitionService } from '../services/test-definitions.ts';
import type { WorkspaceService } from '../services/workspaces.ts';
import type { ConfigService } from '../services/configs.ts';
import type { ScheduleService } from '../services/schedules/schedules.ts';
import type { AgentSessions } from '../services/runs/agent-sessions.ts';
import type { StreamHub } from '../services/runs/stream-hub.ts';
import type { TaskService } from '../services/runs/tasks.ts';
import type { DashboardService } from '../services/dashboards.ts';
import type { EnvVarService } from '../services/env-vars.ts';
import type { GitRepoService } from '../services/git-repos/git-repos.ts';
import type { McpServerService } from '../services/mcp-servers/mcp-servers.ts';
import type { RemoteToolService } from '../services/mcp-servers/remote-tools.ts';
import type { MetricQueryService } from '../services/metrics/metric-queries.ts';
import type { PrometheusApi } from '../services/metrics/prometheus-api.ts';
import type { OtelIngest } from '../services/otel/otel-ingest.ts';
import type { OtelRead } from '../services/otel/otel-read.ts';
import type { UsageService } from '../services/usage/usage-service.ts';
import type { Authenticate } from './authenticate.ts';
import type { LiveSessions } from './live-sessions.ts';
import type { WsKeepAlive } from './ws-keep-alive.ts';

export interface RouteDeps {
  db: Database;
  hooks: HookBus<KernelHooks>;
  authenticate: Authenticate;
  machines: MachineService;
  tests: TestDefinitionService;
  apiTokens: ApiTokenService;
  members: MemberService;
  invitations: InvitationService;
  accessControls: AccessControlService;
  workspaces: WorkspaceService;
  tasks: TaskService;
  configs: ConfigService;
  schedules: ScheduleService;
  envVars: EnvVarService;
  dashboards: DashboardService;
  gitRepos: GitRepoService;
  /** Remote MCP servers, and the proxy to their tools. */
  mcpServers: McpServerService;
  remoteTools: RemoteToolService;
  metricQueries: MetricQueryService;
  prometheus: PrometheusApi;
  /** OTLP metrics: the receiver's store and the per-run read. */
  otelIngest: OtelIngest;
  otelRead: OtelRead;
  /** The monthly AI tool-call budget and GET /usage. */
  usage: UsageService;
  /** This replica's live task streams. */
  streams: StreamHub;
  agentSessions: AgentSessions;
  /** Open streams and agent sockets, cut off when their access is revoked. */
  live: LiveSessions;
  /** Origin used in every URL the service hands out. */
  publicUrl: string;
  /** The tool ids a test may use: the spec's six and every registered load-tool plugin's (`testToolIds`). */
  toolIds: readonly string[];
  /** Ping interval and stale limit of task streams and agent sockets (default: 30 s and 65 s; tests shorten them). */
  wsKeepAlive?: WsKeepAlive;
}
