/** whoami, limits and usage: who the token acts as, what the workspace's plan allows and how much of it is used. */
import { Type } from '@sinclair/typebox';
import { RestError, type RestClient } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { Nullable } from '../paging.ts';

const NoArgs = Type.Object({}, { additionalProperties: false });
const Count = Type.Integer({ minimum: 0 });

interface WorkspaceAnswer {
  id: string;
  name: string;
  plan: string;
  status: string;
  role: string;
  permissions: string[];
  limits: {
    apiTokensPerUser: number;
    machines: number | null;
    tests: number | null;
    retentionDays: number;
    metricsRetentionDays: number;
    aiToolCallsPerMonth: number | null;
  };
}

interface UsageAnswer {
  period: string;
  ai_tool_calls: { used: number; limit: number | null; remaining?: number | null };
  machines?: { used: number; limit: number | null };
  tests?: { used: number; limit: number | null };
  storage?: { log_bytes: number; metric_bytes: number };
}

interface Identity {
  sub: string;
  email: string | null;
  name: string | null;
  preferred_username: string | null;
}

/** GET /usage, or why there is none: a service without the route, or a token it refuses, still answers `limits`. */
async function usageOrWhy(rest: RestClient): Promise<{ usage: UsageAnswer | null; note?: string }> {
  try {
    return { usage: await rest.get<UsageAnswer>('/usage') };
  } catch (error) {
    if (error instanceof RestError && [403, 404, 405].includes(error.status)) return { usage: null, note: `usage not available: ${error.message}` };
    throw error;
  }
}

export const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'The user this API token acts as, the workspace it acts in (id, name, plan, status), the role there (owner, admin, member or viewer) and ' +
    "the role's permissions (run_tests, manage_tests, manage_machines, ...). Call it first to learn what the other tools will allow: " +
    'run_test needs run_tests, write_test and write_config need manage_tests. A token may also be narrowed by scopes (tests:read, runs:write, ...); ' +
    'a tool outside them answers an insufficient_scope error.',
  input: NoArgs,
  output: Type.Object({
    user: Type.Object({ id: Type.String(), username: Nullable(Type.String()), email: Nullable(Type.String()), name: Nullable(Type.String()) }),
    workspace: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String(), status: Type.String() }),
    role: Type.String(),
    permissions: Type.Array(Type.String()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run(_args, { rest }) {
    const [me, workspace] = await Promise.all([rest.get<Identity>('/auth/me'), rest.get<WorkspaceAnswer>('/workspace')]);
    return {
      user: { id: me.sub, username: me.preferred_username, email: me.email, name: me.name },
      workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, status: workspace.status },
      role: workspace.role,
      permissions: workspace.permissions,
    };
  },
});

const Used = Type.Object({ limit: Nullable(Count), used: Nullable(Count) }, { description: 'limit null: unlimited; used null: not reported' });

export const limits = defineTool({
  name: 'limits',
  title: 'Plan limits',
  description:
    "The workspace's plan and its limits: machines and tests (limit and how many exist; null limit = unlimited), API tokens per user, " +
    'how long runs and logs are kept (retention_days) and run time series (metrics_retention_days), the monthly AI tool-call budget, ' +
    'and storage in use (log_bytes, metric_bytes, in bytes). Use it before registering machines or creating tests in bulk.',
  input: NoArgs,
  output: Type.Object({
    plan: Type.String(),
    machines: Used,
    tests: Used,
    api_tokens_per_user: Count,
    retention_days: Count,
    metrics_retention_days: Count,
    ai_tool_calls_per_month: Nullable(Count),
    storage: Nullable(Type.Object({ log_bytes: Count, metric_bytes: Count }, { description: 'bytes' })),
    note: Type.Optional(Type.String()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run(_args, { rest }) {
    const [workspace, { usage, note }] = await Promise.all([rest.get<WorkspaceAnswer>('/workspace'), usageOrWhy(rest)]);
    const { limits: plan } = workspace;
    return {
      plan: workspace.plan,
      machines: { limit: plan.machines, used: usage?.machines?.used ?? null },
      tests: { limit: plan.tests, used: usage?.tests?.used ?? null },
      api_tokens_per_user: plan.apiTokensPerUser,
      retention_days: plan.retentionDays,
      metrics_retention_days: plan.metricsRetentionDays,
      // The budget the service enforces, as its usage report says; the plan's figure where there is none.
      ai_tool_calls_per_month: usage ? usage.ai_tool_calls.limit : plan.aiToolCallsPerMonth,
      storage: usage?.storage ? { log_bytes: usage.storage.log_bytes, metric_bytes: usage.storage.metric_bytes } : null,
      ...(note ? { note } : {}),
    };
  },
});

export const usage = defineTool({
  name: 'usage',
  title: 'AI tool-call budget',
  description:
    "How much of the workspace's monthly AI tool-call budget is used: every MCP tool call counts (this one included), for every member " +
    'and token of the workspace. limit and remaining are null when the plan has no limit. When remaining reaches 0, every tool ' +
    'answers ai_budget_exhausted until the month (period, YYYY-MM) ends.',
  input: NoArgs,
  output: Type.Object({
    period: Type.String({ description: 'the calendar month counted, e.g. 2026-11' }),
    ai_tool_calls: Type.Object({ used: Count, limit: Nullable(Count), remaining: Nullable(Count) }),
  }),
  annotations: { readOnlyHint: true },
  // This very call is in the count it reports.
  async run(_args, { rest }) {
    const answer = await rest.get<UsageAnswer>('/usage');
    const { used, limit } = answer.ai_tool_calls;
    const remaining = answer.ai_tool_calls.remaining !== undefined ? answer.ai_tool_calls.remaining : limit === null ? null : Math.max(0, limit - used);
    return { period: answer.period, ai_tool_calls: { used, limit, remaining } };
  },
});
