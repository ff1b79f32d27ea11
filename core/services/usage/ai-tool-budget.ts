/** The AI tool-call budget's counter: one call deducted per statement, atomically, so the budget is exact on every replica. */
import type { Sql } from '../sql.ts';

/**
 * Counts one call in `period` unless `limit` calls are already counted; the count after it, or null when refused (and
 * then nothing was counted). One statement: the upsert's row lock serializes concurrent calls of a workspace, and its
 * WHERE is evaluated on the row as the last committed call left it, so neither two transactions of one replica nor
 * two replicas can both take the last call (a count-then-update would). The first call of a month inserts the row;
 * `where limit > 0` keeps a budget of 0 from letting that first call through. limit null: unlimited.
 */
export async function deductAiToolCall(sql: Sql, workspaceId: string, period: string, limit: number | null): Promise<number | null> {
  const rows = await sql.all<{ ai_tool_calls: number }>(
    `insert into workspace_usage as u (workspace_id, period, ai_tool_calls)
       select ?::uuid, ?::char(7), 1 where ?::bigint is null or ?::bigint > 0
     on conflict (workspace_id, period) do update set ai_tool_calls = u.ai_tool_calls + 1
       where ?::bigint is null or u.ai_tool_calls < ?::bigint
     returning u.ai_tool_calls`,
    [workspaceId, period, limit, limit, limit, limit],
  );
  return rows[0] ? Number(rows[0].ai_tool_calls) : null;
}

/** The calls counted in `period` (0 before the month's first). */
export async function aiToolCallsUsed(sql: Sql, workspaceId: string, period: string): Promise<number> {
  const rows = await sql.all<{ ai_tool_calls: number }>('select ai_tool_calls from workspace_usage where workspace_id = ? and period = ?', [workspaceId, period]);
  return rows[0] ? Number(rows[0].ai_tool_calls) : 0;
}
