/**
 * One run's time series for its charts: the interval points every machine stored (task_metric_points), merged per time
 * bucket. Counts are summed; percentiles are read from the merged histograms of the bucket, never averaged.
 */
import { mergedPercentiles } from '../../domain/metrics/histogram.ts';
import { bucketCount, chooseStep } from '../../domain/metrics/timeseries-step.ts';
import type { Sql } from '../sql.ts';
import { metricAnswers } from './answer-cache.ts';
import { runPointsVersion } from './metric-changes.ts';

export interface TimeseriesPoint {
  /** Start of the bucket, unix seconds. */
  t: number;
  requests_per_sec: number;
  error_rate: number;
  /** Milliseconds; 0 in a bucket without requests. */
  p50: number;
  p95: number;
  p99: number;
  vus: number;
}

export interface RunTimeseries {
  /** Seconds: the step used, which may be larger than the one asked. */
  step: number;
  points: TimeseriesPoint[];
}

interface SpanRow {
  first: number | string | null;
  last: number | string | null;
}

interface BucketRow {
  k: number | string;
  requests: number | string;
  errors: number | string;
  max_micros: number | string | null;
  buckets: string | null;
}

/**
 * The run's series, from its first interval's start to its last interval's end, one point per bucket (empty buckets
 * included, with zeros, so the time axis is even). An interval counts in the bucket that holds its middle: agents
 * report about every second, never exactly on a bucket's edge. Buckets start at the whole second the first interval
 * starts in, so the first one is full. While the run goes, each read shows the intervals stored so far.
 * The answer is kept (metricAnswers) until the run's points change: a finished run's series is computed once.
 */
export async function readRunTimeseries(sql: Sql, workspaceId: string, taskId: string, requestedStep?: number): Promise<RunTimeseries> {
  // Versioned by the run's change counter (metric-changes.ts: bumped with every stored interval and every prune), a
  // primary-key read instead of counting the run's points. Read before the points: a point stored meanwhile makes the
  // answer newer than its version, never older.
  const key = `timeseries:${workspaceId}:${taskId}:${requestedStep ?? ''}`;
  const version = await runPointsVersion(sql, [taskId]);
  const known = metricAnswers.get<RunTimeseries>(key, version);
  if (known) return known;
  const [span] = await sql.all<SpanRow>(
    `select min(extract(epoch from started_at))::float8 as first, max(extract(epoch from ended_at))::float8 as last
     from task_metric_points where task_id = ? and workspace_id = ?`,
    [taskId, workspaceId],
  );
  if (!span || span.first === null || span.last === null) return { step: chooseStep(0, requestedStep), points: [] };
  const origin = Math.floor(Number(span.first));
  const length = Math.max(0, Number(span.last) - origin);
  const step = chooseStep(length, requestedStep);
  const count = bucketCount(length, step);

  // Agents stop sending intervals while nothing happens (takeInterval answers null), so an empty bucket is a quiet one.
  // VUs: interval snapshots do not carry them (MetricSnapshot has requests, errors and a histogram), so they read 0.
  const rows = await sql.all<BucketRow>(
    `select least(floor(((extract(epoch from started_at) + extract(epoch from ended_at))::float8 / 2 - ?::float8) / ?::float8), ?::float8)::bigint as k,
       sum(requests)::float8 as requests, sum(errors)::float8 as errors,
       max((histogram->>'max')::float8) as max_micros, string_agg(histogram->>'buckets', ' ') as buckets
     from task_metric_points where task_id = ? and workspace_id = ?
     group by 1 order by 1`,
    [origin, step, count - 1, taskId, workspaceId],
  );
  const byBucket = new Map(rows.map((row) => [Math.max(0, Number(row.k)), row]));
  const points: TimeseriesPoint[] = [];
  for (let k = 0; k < count; k++) {
    const row = byBucket.get(k);
    const requests = Number(row?.requests ?? 0);
    const errors = Number(row?.errors ?? 0);
    const buckets = row?.buckets ? row.buckets.split(' ') : [];
    const maxMicros = Number(row?.max_micros ?? 0);
    const [p50, p95, p99] = buckets.length > 0 ? mergedPercentiles(buckets, [50, 95, 99], maxMicros) : [0, 0, 0];
    points.push({ t: origin + k * step, requests_per_sec: requests / step, error_rate: requests > 0 ? errors / requests : 0, p50: p50!, p95: p95!, p99: p99!, vus: 0 });
  }
  const answer = { step, points };
  metricAnswers.set(key, version, answer, 64 + points.length * 120);
  return answer;
}
