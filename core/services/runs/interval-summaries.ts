/**
 * A machine's share of a run read back from its stored interval points, for an assignment whose agent has not sent
 * its summary yet: a run cancelled mid-way is finished at once, and its figures so far come from these.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { type EncodedHistogram, LatencyHistogram } from '../../domain/metrics/histogram.ts';
import type { Sql } from '../sql.ts';

interface PointRow {
  machine_id: string;
  requests: number | string;
  errors: number | string;
  histogram: EncodedHistogram | string | null;
  started_ms: number | string;
  ended_ms: number | string;
}

/** One merged snapshot per machine named, from every interval point it stored for the task; machines without points are absent. */
export async function intervalSummaries(tx: Sql, taskId: string, machineIds: readonly string[]): Promise<Map<string, MetricSnapshot>> {
  const out = new Map<string, MetricSnapshot>();
  if (machineIds.length === 0) return out;
  const rows = await tx.all<PointRow>(
    `select machine_id::text as machine_id, requests, errors, histogram,
       extract(epoch from started_at) * 1000 as started_ms, extract(epoch from ended_at) * 1000 as ended_ms
     from task_metric_points where task_id = ? and machine_id::text in (${machineIds.map(() => '?').join(', ')})`,
    [taskId, ...machineIds],
  );
  const merged = new Map<string, { histogram: LatencyHistogram; requests: number; errors: number; startedAt: number; endedAt: number }>();
  for (const row of rows) {
    let one = merged.get(row.machine_id);
    if (!one) merged.set(row.machine_id, (one = { histogram: new LatencyHistogram(), requests: 0, errors: 0, startedAt: Infinity, endedAt: -Infinity }));
    const histogram = typeof row.histogram === 'string' ? (JSON.parse(row.histogram) as EncodedHistogram) : row.histogram;
    if (histogram) one.histogram.merge(LatencyHistogram.decode(histogram));
    one.requests += Number(row.requests);
    one.errors += Number(row.errors);
    one.startedAt = Math.min(one.startedAt, Number(row.started_ms));
    one.endedAt = Math.max(one.endedAt, Number(row.ended_ms));
  }
  for (const [machineId, one] of merged) {
    out.set(machineId, { histogram: one.histogram.encode(), requests: one.requests, errors: one.errors, startedAt: one.startedAt, endedAt: one.endedAt });
  }
  return out;
}
