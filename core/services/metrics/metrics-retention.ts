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
        const rows = await sql.all<{ id: string }>(
          `delete from task_metric_points where id in (
             select p.id from task_metric_points p join workspaces w on w.id = p.workspace_id
             where w.plan = ? and p.ended_at < to_timestamp(?) limit ?)
           returning id`,
          [plan, cutoff, batch],
        );
        deleted += rows.length;
        if (rows.length < batch) break;
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
