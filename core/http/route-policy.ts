/** The one place where every authenticated route declares what it needs: the token scope and the role permission. */
import type { Permission } from '../domain/permissions.ts';
import type { Scope } from '../domain/scopes.ts';
import { DomainError } from '../kernel/errors.ts';
import type { Caller } from '../services/caller.ts';

export interface RoutePolicy {
  /**
   * What a scoped API token needs: one scope, all of a list, one of `anyOf`, `any` (every token, e.g. who am I), or `null` when scoped
   * tokens are refused outright (users, tokens, access controls, billing: the spec keeps them from scoped tokens).
   */
  scope: Scope | readonly Scope[] | { anyOf: readonly Scope[] } | 'any' | null;
  /** The permission the caller's role must hold in the workspace; absent: any member may. */
  permission?: Permission;
  /** Only the workspace's owners (Access Controls). */
  ownerOnly?: boolean;
}

export const routePolicies: RoutePolicies = {
  'GET /api/v1/auth/me': { scope: 'any' },
  'GET /api/v1/auth/me/workspaces': { scope: 'any' },
  'GET /api/v1/machines': { scope: 'machines:read' },
  'GET /api/v1/machines/:id': { scope: 'machines:read' },
  'POST /api/v1/machines': { scope: 'machines:write', permission: 'manage_machines' },
  'DELETE /api/v1/machines/:id': { scope: 'machines:write', permission: 'manage_machines' },
  'POST /api/v1/machines/:id/calibrate': { scope: 'machines:write', permission: 'manage_machines' },
  'GET /api/v1/tests': { scope: 'tests:read' },
  'GET /api/v1/tests/:id': { scope: 'tests:read' },
  'POST /api/v1/tests': { scope: 'tests:write', permission: 'manage_tests' },
  'PATCH /api/v1/tests/:id': { scope: 'tests:write', permission: 'manage_tests' },
  'DELETE /api/v1/tests/:id': { scope: 'tests:write', permission: 'manage_tests' },
  // Naming a run as the test's baseline changes the test; reading its runs' trend is reading runs (as GET /tasks?test_id=).
  'PUT /api/v1/tests/:id/baseline': { scope: 'tests:write', permission: 'manage_tests' },
  'DELETE /api/v1/tests/:id/baseline': { scope: 'tests:write', permission: 'manage_tests' },
  'GET /api/v1/tests/:id/trend': { scope: 'runs:read' },
  'GET /api/v1/api-tokens': { scope: null, permission: 'manage_api_tokens' },
  'POST /api/v1/api-tokens': { scope: null, permission: 'manage_api_tokens' },
  'DELETE /api/v1/api-tokens/:id': { scope: null, permission: 'manage_api_tokens' },
  'POST /api/v1/api-tokens/:id/rotate': { scope: null, permission: 'manage_api_tokens' },
  'GET /api/v1/workspace': { scope: 'any' },
  'PATCH /api/v1/workspace': { scope: null, permission: 'manage_billing' },
  'GET /api/v1/members': { scope: null },
  'POST /api/v1/members': { scope: null, permission: 'manage_members' },
  'PATCH /api/v1/members/:userId': { scope: null, permission: 'manage_members' },
  'DELETE /api/v1/members/:userId': { scope: null, permission: 'manage_members' },
  'GET /api/v1/members/invitations': { scope: null, permission: 'manage_members' },
  'DELETE /api/v1/members/invitations/:id': { scope: null, permission: 'manage_members' },
  // The invitee answers for themselves, from whichever workspace they act in.
  'GET /api/v1/auth/me/invitations': { scope: null },
  'POST /api/v1/auth/me/invitations/:id/accept': { scope: null },
  'DELETE /api/v1/auth/me/invitations/:id': { scope: null },
  'GET /api/v1/access-controls': { scope: null, ownerOnly: true },
  'PUT /api/v1/access-controls': { scope: null, ownerOnly: true },
  'GET /api/v1/audit-log': { scope: null, permission: 'view_audit_log' },
  'GET /api/v1/tasks': { scope: 'runs:read' },
  'POST /api/v1/tasks': { scope: 'runs:write', permission: 'run_tests' },
  'GET /api/v1/tasks/:id': { scope: 'runs:read' },
  'DELETE /api/v1/tasks/:id': { scope: 'runs:write', permission: 'run_tests' },
  'GET /api/v1/tasks/:id/log-stream': { scope: 'runs:read' },
  'GET /api/v1/tasks/:id/ws': { scope: 'runs:read' },
  // A run's own figures over time, like the task itself (the spec's metrics:read is for the workspace-wide queries).
  'GET /api/v1/tasks/:id/timeseries': { scope: 'runs:read' },
  // Its results per endpoint and its errors by group, likewise.
  'GET /api/v1/tasks/:id/endpoints': { scope: 'runs:read' },
  'GET /api/v1/tasks/:id/errors': { scope: 'runs:read' },
  // Two runs' figures side by side (the base may be the test's baseline).
  'GET /api/v1/tasks/:id/compare': { scope: 'runs:read' },
  // Schedules start runs: reading them is reading runs, writing them is like starting one (contract).
  'GET /api/v1/schedules': { scope: 'runs:read' },
  'GET /api/v1/schedules/:id': { scope: 'runs:read' },
  'POST /api/v1/schedules': { scope: 'runs:write', permission: 'run_tests' },
  'PATCH /api/v1/schedules/:id': { scope: 'runs:write', permission: 'run_tests' },
  'DELETE /api/v1/schedules/:id': { scope: 'runs:write', permission: 'run_tests' },
  'GET /api/v1/configs': { scope: 'tests:read' },
  'POST /api/v1/configs': { scope: 'tests:write', permission: 'manage_tests' },
  'GET /api/v1/configs/:id': { scope: 'tests:read' },
  'PATCH /api/v1/configs/:id': { scope: 'tests:write', permission: 'manage_tests' },
  'DELETE /api/v1/configs/:id': { scope: 'tests:write', permission: 'manage_tests' },
  // Remote MCP servers: admins (manage_mcp_servers), never scoped tokens (the headers are credentials). The proxy too:
  // a remote tool acts with the admin's stored headers; ASK AI will call it server-side for every member.
  'GET /api/v1/mcp-servers': { scope: null, permission: 'manage_mcp_servers' },
  'POST /api/v1/mcp-servers': { scope: null, permission: 'manage_mcp_servers' },
  'GET /api/v1/mcp-servers/:id': { scope: null, permission: 'manage_mcp_servers' },
  'PATCH /api/v1/mcp-servers/:id': { scope: null, permission: 'manage_mcp_servers' },
  'DELETE /api/v1/mcp-servers/:id': { scope: null, permission: 'manage_mcp_servers' },
  'GET /api/v1/mcp-servers/tools': { scope: null, permission: 'manage_mcp_servers' },
  'POST /api/v1/mcp-servers/:id/call': { scope: null, permission: 'manage_mcp_servers' },
  // Keys and who changed them are readable with tests:read; values never leave. Setting one is like editing a test:
  // anyone who may edit and run tests could print a variable from a script anyway.
  'GET /api/v1/env-vars': { scope: 'tests:read' },
  'PUT /api/v1/env-vars/:key': { scope: 'tests:write', permission: 'manage_tests' },
  'DELETE /api/v1/env-vars/:key': { scope: 'tests:write', permission: 'manage_tests' },
  // Dashboards show metrics: reading needs metrics:read. Writing one needs it too (a token saves what it can read) and
  // tests:write, the scope of the workspace's other shared definitions, with the permission manage_tests.
  'GET /api/v1/dashboards': { scope: 'metrics:read' },
  'GET /api/v1/dashboards/:id': { scope: 'metrics:read' },
  'POST /api/v1/dashboards': { scope: ['metrics:read', 'tests:write'], permission: 'manage_tests' },
  'PUT /api/v1/dashboards/:id': { scope: ['metrics:read', 'tests:write'], permission: 'manage_tests' },
  'DELETE /api/v1/dashboards/:id': { scope: ['metrics:read', 'tests:write'], permission: 'manage_tests' },
  // A repository's sync creates and changes tests.
  'GET /api/v1/git-repos': { scope: 'tests:read' },
  'GET /api/v1/git-repos/:id': { scope: 'tests:read' },
  'POST /api/v1/git-repos': { scope: 'tests:write', permission: 'manage_tests' },
  'PATCH /api/v1/git-repos/:id': { scope: 'tests:write', permission: 'manage_tests' },
  'DELETE /api/v1/git-repos/:id': { scope: 'tests:write', permission: 'manage_tests' },
  'POST /api/v1/git-repos/:id/sync': { scope: 'tests:write', permission: 'manage_tests' },
  // Run time series: the spec's metrics:read.
  'GET /api/v1/prometheus/api/v1/query': { scope: 'metrics:read' },
  'POST /api/v1/prometheus/api/v1/query': { scope: 'metrics:read' },
  'GET /api/v1/prometheus/api/v1/query_range': { scope: 'metrics:read' },
  'POST /api/v1/prometheus/api/v1/query_range': { scope: 'metrics:read' },
  'GET /api/v1/prometheus/api/v1/labels': { scope: 'metrics:read' },
  'POST /api/v1/prometheus/api/v1/labels': { scope: 'metrics:read' },
  'GET /api/v1/prometheus/api/v1/label/:name/values': { scope: 'metrics:read' },
  'POST /api/v1/prometheus/api/v1/label/:name/values': { scope: 'metrics:read' },
  'GET /api/v1/prometheus/api/v1/series': { scope: 'metrics:read' },
  'POST /api/v1/prometheus/api/v1/series': { scope: 'metrics:read' },
  'GET /api/v1/metrics/catalog': { scope: 'metrics:read' },
  'GET /api/v1/metrics/query': { scope: 'metrics:read' },
  // OTLP: the contract opens the receiver to metrics:read (the token a Grafana or an SDK already holds) or runs:write;
  // the role must be one that may run tests, since the points become part of a run.
  'POST /api/v1/otlp/v1/metrics': { scope: { anyOf: ['metrics:read', 'runs:write'] }, permission: 'run_tests' },
  'GET /api/v1/tasks/:id/otel': { scope: 'metrics:read' },
  // Every member's AI agent spends the workspace's budget, whatever its token may do (a tests:read token's MCP tools
  // included): no scope and no permission beyond membership. Reading the usage is like reading the workspace.
  'GET /api/v1/usage': { scope: 'any' },
  'POST /api/v1/usage/ai-tool-calls': { scope: 'any' },
  // ASK AI (plugin mcp, which checks these through REST with the caller's own credentials): any member asks, with their
  // own rights in every tool; the workspace's model and its key are set by whoever may manage remote MCP servers.
  'GET /api/v1/assistant': { scope: 'any' },
  'POST /api/v1/assistant/chat': { scope: 'any' },
  'GET /api/v1/assistant/settings': { scope: null, permission: 'manage_mcp_servers' },
  'PUT /api/v1/assistant/settings': { scope: null, permission: 'manage_mcp_servers' },
  // An agent registers its machine and runs assignments: both scopes, and the right to manage machines.
  'GET /api/v1/agent': { scope: ['machines:write', 'runs:write'], permission: 'manage_machines' },
};

/** WebSocket routes (Elysia lists them as WS) are GET requests asking for an upgrade; HEAD is a GET without the body. */
export const policyKey = (method: string, route: string) => {
  const upper = method.toUpperCase();
  return `${upper === 'WS' || upper === 'HEAD' ? 'GET' : upper} ${route.replace(/(.)\/$/, '$1')}`;
};

/** Policies by `METHOD /api/v1/path`: core's own (routePolicies) and those of plugins' API routes. */
export type RoutePolicies = Readonly<Record<string, RoutePolicy>>;

/** Throws 403 when the caller's token scopes or role do not cover the route; a route without a policy is refused (fail closed). */
export function enforcePolicy(caller: Caller, method: string, route: string, policies: RoutePolicies = routePolicies): void {
  const key = policyKey(method, route);
  const policy = policies[key];
  if (!policy) throw new DomainError('internal_error', `no access policy is declared for ${key}`);
  const scopes = caller.token?.scopes ?? [];
  if (scopes.length > 0 && policy.scope !== 'any') {
    if (policy.scope === null) {
      throw new DomainError('insufficient_scope', 'scoped API tokens cannot manage users, tokens, access controls or billing');
    }
    if (typeof policy.scope === 'object' && 'anyOf' in policy.scope) {
      if (!policy.scope.anyOf.some((scope) => scopes.includes(scope))) {
        throw new DomainError('insufficient_scope', `this API token needs one of the scopes ${policy.scope.anyOf.join(' or ')}`);
      }
      return enforceRole(caller, policy);
    }
    const needed = typeof policy.scope === 'string' ? [policy.scope] : policy.scope;
    const missing = needed.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) {
      throw new DomainError('insufficient_scope', `this API token lacks the scope ${missing.join(' and ')}`);
    }
  }
  enforceRole(caller, policy);
}

function enforceRole(caller: Caller, policy: RoutePolicy): void {
  if (policy.ownerOnly && caller.workspace.role !== 'owner') {
    throw new DomainError('forbidden', 'only owners of the workspace may do this');
  }
  if (policy.permission && !caller.workspace.permissions.includes(policy.permission)) {
    throw new DomainError('forbidden', `your role (${caller.workspace.role}) lacks the permission ${policy.permission}`);
  }
}
