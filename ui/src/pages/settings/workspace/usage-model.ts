/**
 * Usage against the plan, the pure part: one row per limited thing (machines, tests, your API tokens, waiting tasks,
 * AI tool calls this month, storage) with what is used, the limit (null = unlimited, undefined = not reported) and
 * how full it is. Exports: UsageRow, usageRows, limitText, usedText, fraction.
 */
import { formatBytes, formatCount } from '../../../components/common/formatters';
import type { Usage } from '../settings-types';

export interface UsageRow {
  label: string;
  used: number | null;
  /** null: unlimited; undefined: the API does not report one. */
  limit: number | null | undefined;
  bytes?: boolean;
  note?: string;
}

interface WorkspaceLimits {
  limits: { apiTokensPerUser: number; machines: number | null; tests: number | null; aiToolCallsPerMonth: number | null } & Record<string, unknown>;
}

/** `{used, limit}` of an answer that may carry it (fields not in the generated schema are read defensively). */
function usedLimit(value: unknown): { used: number; limit: number | null } | null {
  if (!value || typeof value !== 'object') return null;
  const { used, limit } = value as { used?: unknown; limit?: unknown };
  if (typeof used !== 'number') return null;
  return { used, limit: typeof limit === 'number' ? limit : null };
}

export function usageRows(input: {
  workspace: WorkspaceLimits | undefined;
  usage: Usage | undefined;
  activeTokens: number | undefined;
  pendingTasks: number | undefined;
}): UsageRow[] {
  const { workspace, usage, activeTokens, pendingTasks } = input;
  const limits = workspace?.limits;
  const extra = usage as (Usage & Record<string, unknown>) | undefined;
  const pendingFromUsage = usedLimit(extra?.pending_tasks);
  const pendingLimit = pendingFromUsage?.limit ?? (typeof limits?.pendingTasks === 'number' ? limits.pendingTasks : undefined);
  return [
    { label: 'Machines', used: usage?.machines.used ?? null, limit: usage ? usage.machines.limit : limits?.machines },
    { label: 'Tests', used: usage?.tests.used ?? null, limit: usage ? usage.tests.limit : limits?.tests },
    { label: 'Your API tokens', used: activeTokens ?? null, limit: limits?.apiTokensPerUser, note: 'per user' },
    {
      label: 'Waiting (pending) tasks',
      used: pendingFromUsage?.used ?? pendingTasks ?? null,
      limit: pendingLimit,
      note: 'at once; past it a new run is refused',
    },
    {
      label: `AI tool calls this month${usage ? ` (${usage.period})` : ''}`,
      used: usage?.ai_tool_calls.used ?? null,
      limit: usage ? usage.ai_tool_calls.limit : limits?.aiToolCallsPerMonth,
      note: 'resets on the 1st, 00:00 UTC',
    },
    { label: 'Stored run logs', used: usage?.storage.log_bytes ?? null, limit: undefined, bytes: true },
    { label: 'Stored metrics (estimate)', used: usage?.storage.metric_bytes ?? null, limit: undefined, bytes: true },
  ];
}

export function usedText(row: UsageRow): string {
  if (row.used === null) return '–';
  return row.bytes ? formatBytes(row.used) : formatCount(row.used);
}

export function limitText(row: UsageRow): string {
  if (row.limit === undefined) return row.bytes ? 'no limit' : 'not reported';
  if (row.limit === null) return 'unlimited';
  return formatCount(row.limit);
}

/** How full, 0..1 (capped), or null when there is no finite limit to compare with. */
export function fraction(row: UsageRow): number | null {
  if (row.used === null || row.limit === null || row.limit === undefined) return null;
  if (row.limit <= 0) return row.used > 0 ? 1 : 0;
  return Math.min(1, row.used / row.limit);
}
