/**
 * Retention of run time series by plan (`metricsRetentionDays` in core/domain/plans.ts): the job `metrics:retention`
 * deletes points older than their workspace's plan keeps, in bounded batches so no statement holds locks for long.
 * Safe to run twice or on two replicas at once: a delete by age converges whichever run gets there first.
 */
import { planLimits } from '../../domain/plans.ts';
import type { Database } from '../../ports/database.ts';
import type { JobQueue } from '../../ports/job-queue.ts';
import { sqlOf } from '../sql.ts';

export const metricsRetentionJob = 'metrics:retention';
/** Hourly: a point outlives its plan's retention by at most an hour. */
export const metricsRetentionEveryMillis = 3_600_000;
const batchSize = 5_000;

export function createMetricsRetention(deps: { db: Database; now?: () => number; batchSize?: number }) {
  const sql = sqlOf(deps.db);
  const batch = deps.batchSize ?? batchSize;
  /** Deletes what every workspace's plan no longer keeps; answers how many points went. */
  async function prune(): Promise<number> {
    const now = (deps.now?.() ?? Date.now()) / 1000;
    let deleted = 0;
    for (const [plan, limits] of Object.entries(planLimits)) {
      const cutoff = now - limits.metricsRetentionDays * 86_400;
      for (;;) {
        // One statement: the batch's points and the bump of their runs' change counters (metric-changes.ts) together.
        const [row] = await sql.all<{ deleted: number | string }>(
          `with gone as (
             delete from task_metric_points where id in (
               select p.id from task_metric_points p join workspaces w on w.id = p.workspace_id
               where w.plan = ? and p.ended_at < to_timestamp(?) limit ?)
             returning task_id),
           bumped as (
             update task_metric_changes set changes = changes + 1 where task_id in (select distinct task_id from gone))
           select count(*) as deleted from gone`,
          [plan, cutoff, batch],
        );
        const count = Number(row?.deleted ?? 0);
        deleted += count;
        if (count < batch) break;
      }
    }
    return deleted;
  }
  /** Registers its job (on a replica that runs jobs): the service keeps its own schedule. */
  async function schedule(jobs: JobQueue, everyMillis = metricsRetentionEveryMillis): Promise<void> {
    jobs.define(metricsRetentionJob, async () => void (await prune()));
    await jobs.every(metricsRetentionJob, everyMillis);
  }
  return { prune, schedule };
}
