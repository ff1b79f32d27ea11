/**
 * Run time series for metric tests: a real (pending) run created through the API, its points written as an agent's
 * would be, and the two-machine minute the metrics and Prometheus route tests both query.
 */
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { bumpRunPoints } from '../../core/services/metrics/metric-changes.ts';
import { sqlOf } from '../../core/services/sql.ts';
import type { TestService } from './test-service.ts';

export interface MetricRun {
  workspaceId: string;
  taskId: string;
  testId: string;
}

/** A test and a run of it (pending: no machine needs to be online for points to belong to it). */
export async function createMetricRun(ts: TestService, token: string, name = 'metrics'): Promise<MetricRun> {
  const workspace = (await (await ts.request('/api/v1/workspace', { token })).json()) as { id: string };
  const test = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name, tool: 'custom', script: 'echo hi' } });
  if (test.status !== 201) throw new Error(`test: ${test.status} ${await test.text()}`);
  const testId = ((await test.json()) as { id: string }).id;
  const task = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, transport: 'sse' } });
  if (task.status !== 202) throw new Error(`task: ${task.status} ${await task.text()}`);
  return { workspaceId: workspace.id, testId, taskId: ((await task.json()) as { id: string }).id };
}

export interface PointSpec {
  machineId: string;
  /** End of the interval, unix seconds. */
  t: number;
  /** Interval length in seconds (default 1). */
  seconds?: number;
  errors?: number;
  /** Latencies in milliseconds; their count is the interval's requests. */
  latencies: readonly number[];
}

/** Writes points as agent-sessions.ts stores an agent's metric snapshot. */
export async function insertPoints(ts: TestService, run: MetricRun, points: readonly PointSpec[]): Promise<void> {
  const rows = points.map((point) => {
    const histogram = new LatencyHistogram();
    for (const ms of point.latencies) histogram.record(ms);
    return {
      task_id: run.taskId,
      workspace_id: run.workspaceId,
      machine_id: point.machineId,
      test_id: run.testId,
      started_at: new Date((point.t - (point.seconds ?? 1)) * 1000).toISOString(),
      ended_at: new Date(point.t * 1000).toISOString(),
      requests: point.latencies.length,
      errors: point.errors ?? 0,
      p50: histogram.percentile(50),
      p95: histogram.percentile(95),
      p99: histogram.percentile(99),
      histogram: histogram.encode(),
      labels: { run: run.taskId, machine: point.machineId, test: run.testId },
    };
  });
  const sql = sqlOf(ts.service.database);
  for (let i = 0; i < rows.length; i += 2000) {
    await sql.all(
      `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
       select task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels
       from json_to_recordset(?::json) as r(task_id uuid, workspace_id uuid, machine_id uuid, test_id uuid, started_at timestamptz, ended_at timestamptz,
         requests integer, errors integer, p50 float8, p95 float8, p99 float8, histogram jsonb, labels jsonb)`,
      [JSON.stringify(rows.slice(i, i + 2000))],
    );
  }
  // As storeMetricInterval does: the run's change counter moves with its points (answers kept for them are dropped).
  await sql.all(...bumpRunPoints(run.taskId));
}

/** Machine A is fast: 190 requests of 10 ms a second. */
export const fastLatencies: readonly number[] = Array.from({ length: 190 }, () => 10);
/** Machine B is slow: 10 requests of 100..190 ms a second, a twentieth of the total. */
export const slowLatencies: readonly number[] = Array.from({ length: 10 }, (_, i) => 100 + i * 10);

/** A minute-aligned unix time an hour ago: far enough back for a whole minute of points, within retention. */
export function minuteAnHourAgo(): number {
  return Math.floor(Date.now() / 1000 / 60) * 60 - 3600;
}

/**
 * A run with a minute of points (base+1 .. base+60) from two machines: A fast with 9 errors a second in the first
 * 10 s, B slow. Their merged p95 is 10 ms; the average of the two machines' p95 would be about 100 ms.
 */
export async function seedTwoMachineMinute(ts: TestService, token: string, options: { base: number; machineA: string; machineB: string }): Promise<MetricRun> {
  const run = await createMetricRun(ts, token);
  const points: PointSpec[] = [];
  for (let s = 1; s <= 60; s++) {
    points.push({ machineId: options.machineA, t: options.base + s, latencies: fastLatencies, errors: s <= 10 ? 9 : 0 });
    points.push({ machineId: options.machineB, t: options.base + s, latencies: slowLatencies });
  }
  await insertPoints(ts, run, points);
  return run;
}
