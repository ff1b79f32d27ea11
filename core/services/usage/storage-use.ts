/** What a workspace keeps in the database: its runs' stored log text and an estimate of its stored metric points, in bytes. */
import type { Sql } from '../sql.ts';

export interface StorageUse {
  log_bytes: number;
  metric_bytes: number;
}

/** Rows whose size is measured to estimate the rest: a workspace's rows are alike (one histogram encoding, one shape). */
const sampleRows = 100;

/**
 * One statement, every part read through an index on the workspace (no scan of other workspaces' rows):
 * - log_bytes: the UTF-8 bytes of the stored log lines' text, which the log store already keeps per task
 *   (`tasks.log_bytes`, counted under the task row's lock as lines are stored): a sum over the workspace's tasks.
 * - metric_bytes: run metric points (`task_metric_points`, one row per machine and interval) and OTLP points
 *   (`otel_points`, through the workspace's series), each estimated as rows × the average `pg_column_size` of the
 *   workspace's newest 100 rows of that table, a row's stored size with its tuple header. Counting is an index scan;
 *   summing every row's size would read every row. Indexes, page overhead and the series rows are not counted, and a
 *   large histogram the database compressed counts as stored, so this is the data's size, not the disk's.
 */
export async function storageUse(sql: Sql, workspaceId: string): Promise<StorageUse> {
  const [row] = await sql.all<{ log_bytes: string | number; run_points: string | number; run_point_bytes: string | number; otel_points: string | number; otel_point_bytes: string | number }>(
    `select
       (select coalesce(sum(log_bytes), 0) from tasks where workspace_id = ?) as log_bytes,
       (select count(*) from task_metric_points where workspace_id = ?) as run_points,
       (select coalesce(avg(pg_column_size(p.*)), 0) from
          (select * from task_metric_points where workspace_id = ? order by ended_at desc limit ${sampleRows}) p) as run_point_bytes,
       (select count(*) from otel_points where series_id in (select id from otel_series where workspace_id = ?)) as otel_points,
       (select coalesce(avg(pg_column_size(o.*)), 0) from
          (select * from otel_points where series_id in (select id from otel_series where workspace_id = ?) limit ${sampleRows}) o) as otel_point_bytes`,
    [workspaceId, workspaceId, workspaceId, workspaceId, workspaceId],
  );
  const number = (value: string | number | undefined) => Number(value ?? 0);
  return {
    log_bytes: number(row?.log_bytes),
    metric_bytes: Math.round(number(row?.run_points) * number(row?.run_point_bytes) + number(row?.otel_points) * number(row?.otel_point_bytes)),
  };
}
