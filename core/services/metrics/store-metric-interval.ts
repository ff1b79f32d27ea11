/**
 * Stores one machine's interval of a run: its time-series point (task_metric_points, with the interval's own
 * percentiles) and its per-endpoint figures and error groups, in one transaction, or nothing; once committed, tells
 * run-endpoints what it stored (rememberStoredInterval). The run's change counter (metric-changes.ts) moves with it.
 * The agent session stores every interval this way (the benchmarks too, so they measure the real thing).
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { LatencyHistogram, mergedPercentiles } from '../../domain/metrics/histogram.ts';
import type { Database } from '../../ports/database.ts';
import { transaction } from '../sql.ts';
import { bumpRunPoints } from './metric-changes.ts';
import { endpointsMemoOf, rememberStoredInterval, storeIntervalEndpoints } from './run-endpoints.ts';

export interface IntervalOf {
  workspaceId: string;
  taskId: string;
  testId: string;
  machineId: string;
}

/**
 * The interval's p50, p95 and p99, as `percentile` of the decoded histogram answers them: read from its buckets in one
 * pass (no Map, no sort of its keys, done three times), or decoded when they hold a bucket past an hour (no agent
 * writes one).
 */
function intervalPercentiles(snapshot: MetricSnapshot): number[] {
  try {
    return mergedPercentiles([snapshot.histogram.buckets], [50, 95, 99], snapshot.histogram.max);
  } catch {
    const histogram = LatencyHistogram.decode(snapshot.histogram);
    return [histogram.percentile(50), histogram.percentile(95), histogram.percentile(99)];
  }
}

/** Call it with a snapshot that passed `snapshotProblem`. */
export async function storeMetricInterval(db: Database, of: IntervalOf, snapshot: MetricSnapshot): Promise<void> {
  const [p50, p95, p99] = intervalPercentiles(snapshot);
  const memos = endpointsMemoOf(db);
  const stored = await transaction(db, async (tx) => {
    await tx.all(
      `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
       values (?, ?, ?, ?, to_timestamp(? / 1000.0), to_timestamp(? / 1000.0), ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
      [
        of.taskId,
        of.workspaceId,
        of.machineId,
        of.testId,
        snapshot.startedAt,
        snapshot.endedAt,
        snapshot.requests,
        snapshot.errors,
        p50,
        p95,
        p99,
        JSON.stringify(snapshot.histogram),
        JSON.stringify({ run: of.taskId, machine: of.machineId, test: of.testId }),
      ],
    );
    const endpoints = await storeIntervalEndpoints(tx, { workspaceId: of.workspaceId, taskId: of.taskId, machineId: of.machineId }, snapshot, memos);
    // Last, so the run's counter row is locked only for the commit (the run's machines store their intervals at once).
    await tx.all(...bumpRunPoints(of.taskId));
    return endpoints;
  });
  // Committed: what it stored may spare the task's next intervals two statements (TaskMemo in run-endpoints.ts).
  if (stored) rememberStoredInterval(memos, stored);
}
