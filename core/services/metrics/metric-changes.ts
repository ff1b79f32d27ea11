/**
 * The change counter of each run's stored points (task_metric_changes, migration 0024): every write that adds or removes
 * points bumps it in the same transaction, so `runPointsVersion` tells with primary-key reads whether an answer
 * computed from a run's points still holds. Writers: storeMetricInterval (an interval), metrics retention (a prune).
 */
import type { Sql } from '../sql.ts';

/** Statement (and parameters) that bumps a run's counter; run it last in the transaction that changed its points. */
export function bumpRunPoints(taskId: string): [sql: string, params: unknown[]] {
  return [
    `insert into task_metric_changes (task_id, changes) values (?, 1)
     on conflict (task_id) do update set changes = task_metric_changes.changes + 1`,
    [taskId],
  ];
}

/**
 * A version of the points of these runs: it changes whenever any of their points is stored or deleted (and when a run
 * is deleted: its counter goes with it). `-` for a run without a counter (no point stored since migration 0024).
 */
export async function runPointsVersion(sql: Sql, taskIds: readonly string[]): Promise<string> {
  const ids = [...new Set(taskIds)].sort();
  const rows = await sql.all<{ task_id: string; changes: number | string }>(
    `select task_id::text as task_id, changes from task_metric_changes where task_id in (${ids.map(() => '?::uuid').join(', ')})`,
    ids,
  );
  const changes = new Map(rows.map((row) => [row.task_id, String(row.changes)]));
  return ids.map((id) => `${id}=${changes.get(id) ?? '-'}`).join(',');
}
