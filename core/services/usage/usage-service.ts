/** A workspace's usage against its plan: the monthly AI tool-call budget (deducted one call at a time) and GET /usage's report. */
import { limitsOf } from '../../domain/plans.ts';
import { nextPeriodStart, secondsUntilNextPeriod, usagePeriod } from '../../domain/usage-period.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import type { Caller } from '../caller.ts';
import { sqlOf } from '../sql.ts';
import { aiToolCallsUsed, deductAiToolCall } from './ai-tool-budget.ts';
import { type StorageUse, storageUse } from './storage-use.ts';

export interface AiToolCallDeducted {
  period: string;
  used: number;
  /** null: unlimited (and then `remaining` is null too). */
  limit: number | null;
  remaining: number | null;
}

export interface UsageReport {
  period: string;
  ai_tool_calls: { used: number; limit: number | null };
  machines: { used: number; limit: number | null };
  tests: { used: number; limit: number | null };
  storage: StorageUse;
}

export interface UsageDeps {
  db: Database;
  /** The time (tests move it across a month's end); default the system's. */
  now?: () => Date;
  /** The monthly AI tool-call budget of a plan (tests set a small one); default the plans module's. */
  aiToolCallBudget?: (plan: string) => number | null;
}

export function createUsageService(deps: UsageDeps) {
  const sql = sqlOf(deps.db);
  const now = deps.now ?? (() => new Date());
  const budgetOf = deps.aiToolCallBudget ?? ((plan: string) => limitsOf(plan).aiToolCallsPerMonth);

  return {
    /** One AI tool call against this month's budget: counted, or 429 ai_budget_exhausted and nothing counted. */
    async deductAiToolCall(caller: Caller): Promise<AiToolCallDeducted> {
      const at = now();
      const period = usagePeriod(at);
      const limit = budgetOf(caller.workspace.plan);
      const used = await deductAiToolCall(sql, caller.workspace.workspaceId, period, limit);
      if (used === null) {
        const resets = nextPeriodStart(at).toISOString().slice(0, 10);
        throw new DomainError(
          'ai_budget_exhausted',
          `this workspace has used its AI tool-call budget for ${period} (${limit} calls on the ${caller.workspace.plan} plan); it resets on ${resets} at 00:00 UTC`,
          { retryAfterSeconds: secondsUntilNextPeriod(at) },
        );
      }
      return { period, used, limit, remaining: limit === null ? null : Math.max(0, limit - used) };
    },

    /** The month's AI tool calls, machines and tests against the plan, and what the workspace stores. */
    async report(caller: Caller): Promise<UsageReport> {
      const workspaceId = caller.workspace.workspaceId;
      const period = usagePeriod(now());
      const limits = limitsOf(caller.workspace.plan);
      // Both counts go through the (workspace_id, created_at) indexes; tests count as the plan limit does (not deleted).
      const [counts] = await sql.all<{ machines: string | number; tests: string | number }>(
        `select (select count(*) from machines where workspace_id = ?) as machines,
                (select count(*) from tests where workspace_id = ? and deleted_at is null) as tests`,
        [workspaceId, workspaceId],
      );
      const aiUsed = await aiToolCallsUsed(sql, workspaceId, period);
      const storage = await storageUse(sql, workspaceId);
      return {
        period,
        ai_tool_calls: { used: aiUsed, limit: budgetOf(caller.workspace.plan) },
        machines: { used: Number(counts?.machines ?? 0), limit: limits.machines },
        tests: { used: Number(counts?.tests ?? 0), limit: limits.tests },
        storage,
      };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
