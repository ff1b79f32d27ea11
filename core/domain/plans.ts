/** Plans and their limits. `null` means unlimited. The spec fixes the API-token limits; the rest are ours, documented in docs/api-guide.md (API tokens, roles and plans). */

export interface PlanLimits {
  /** Personal API tokens per user in a workspace (spec: Starter none, Scale 1, Enterprise 5). */
  apiTokensPerUser: number;
  machines: number | null;
  tests: number | null;
  /** How long runs and their logs are kept. */
  retentionDays: number;
  /** How long run time series (task_metric_points) are kept; older points are deleted by the job metrics:retention. */
  metricsRetentionDays: number;
  /**
   * AI (MCP) tool calls per workspace and UTC calendar month, each deducted by POST /usage/ai-tool-calls; null would
   * be unlimited (every plan has a number today).
   */
  aiToolCallsPerMonth: number | null;
  /** Tasks waiting for a machine at once; past it POST /tasks answers 429 too_many_pending_tasks. */
  pendingTasks: number;
  /** Schedules per workspace (enabled or not); past it POST /schedules answers 403 plan_limit_schedules. */
  schedules: number | null;
}

export const planLimits = {
  starter: { apiTokensPerUser: 0, machines: 2, tests: 25, retentionDays: 7, metricsRetentionDays: 7, aiToolCallsPerMonth: 100, pendingTasks: 20, schedules: 5 },
  scale: { apiTokensPerUser: 1, machines: 25, tests: 500, retentionDays: 90, metricsRetentionDays: 30, aiToolCallsPerMonth: 5_000, pendingTasks: 200, schedules: 50 },
  enterprise: { apiTokensPerUser: 5, machines: null, tests: null, retentionDays: 365, metricsRetentionDays: 90, aiToolCallsPerMonth: 50_000, pendingTasks: 1_000, schedules: null },
} as const satisfies Record<string, PlanLimits>;

export type PlanName = keyof typeof planLimits;

export function limitsOf(plan: string): PlanLimits {
  return planLimits[plan as PlanName] ?? planLimits.starter;
}
