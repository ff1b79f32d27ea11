/**
 * Finished runs with chosen figures for tests of what a run means (baselines, comparisons, trends, verdicts): a run
 * created through the API (pending, no machine needed), then given its end as the lifecycle stores it, and optionally
 * per-endpoint results and error groups as an agent's intervals store them.
 */
import type { ErrorGroup, MetricSnapshot } from '../../core/capabilities/load-tool.ts';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import type { ThresholdResult } from '../../core/domain/thresholds.ts';
import { storeIntervalEndpoints } from '../../core/services/metrics/run-endpoints.ts';
import { sqlOf, transaction } from '../../core/services/sql.ts';
import type { TestService } from './test-service.ts';

export interface RunFigures {
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  requests_per_sec: number;
  total_requests: number;
}

export interface SeededRun {
  id: string;
  public_id: string;
}

export interface SeededEndpoint {
  name: string;
  /** Every request of the endpoint takes this long (ms). */
  latency: number;
  /** Requests a second, for ten seconds. */
  requests: number;
  /** Failed ones of them, a second. */
  errors?: number;
}

export interface FinishOptions {
  status?: 'completed' | 'failed' | 'cancelled';
  verdict?: 'passed' | 'failed' | null;
  thresholdResults?: ThresholdResult[];
  error?: string | null;
  finishedAt?: Date;
  /** Ten one-second intervals of these endpoints on one machine. */
  endpoints?: SeededEndpoint[];
  /** Stored once with the first interval. */
  errorGroups?: ErrorGroup[];
}

const machineId = '00000000-0000-4000-8000-0000000000f1';

async function created<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A test of the tool custom in the token's workspace. */
export async function seedTest(ts: TestService, token: string, name: string): Promise<string> {
  return (await created<{ id: string }>(await ts.request('/api/v1/tests', { method: 'POST', token, json: { name, tool: 'custom', script: 'echo hi' } }), 201)).id;
}

/** A run of the test, pending (no machine is online). */
export async function seedPendingRun(ts: TestService, token: string, testId: string): Promise<SeededRun> {
  return created<SeededRun>(await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } }), 202);
}

/** A run of the test that ran and ended with these figures. */
export async function seedFinishedRun(ts: TestService, token: string, testId: string, figures: RunFigures, options: FinishOptions = {}): Promise<SeededRun> {
  const run = await seedPendingRun(ts, token, testId);
  const finishedAt = options.finishedAt ?? new Date();
  const sql = sqlOf(ts.service.database);
  await sql.all(
    `update tasks set status = ?, started_at = ?, finished_at = ?, p50 = ?, p95 = ?, p99 = ?, error_rate = ?, requests_per_sec = ?, total_requests = ?,
       verdict = ?, threshold_results = ?::jsonb, error_message = ?, pending_reason = null where id = ?`,
    [
      options.status ?? 'completed',
      new Date(finishedAt.getTime() - 60_000),
      finishedAt,
      figures.p50,
      figures.p95,
      figures.p99,
      figures.error_rate,
      figures.requests_per_sec,
      figures.total_requests,
      options.verdict ?? null,
      JSON.stringify(options.thresholdResults ?? []),
      options.error ?? null,
      run.id,
    ],
  );
  if (options.endpoints || options.errorGroups) {
    const [{ workspace_id: workspaceId }] = (await sql.all<{ workspace_id: string }>('select workspace_id from tasks where id = ?', [run.id])) as [{ workspace_id: string }];
    await storeEndpoints(ts, { workspaceId, taskId: run.id }, options.endpoints ?? [], options.errorGroups ?? []);
  }
  return run;
}

const histogramOf = (latency: number, count: number) => {
  const histogram = new LatencyHistogram();
  for (let i = 0; i < count; i++) histogram.record(latency);
  return histogram;
};

async function storeEndpoints(ts: TestService, owner: { workspaceId: string; taskId: string }, endpoints: SeededEndpoint[], errorGroups: ErrorGroup[]) {
  const start = Date.UTC(2026, 10, 26, 9, 0, 0);
  for (let s = 1; s <= 10; s++) {
    const snapshot: MetricSnapshot = {
      histogram: histogramOf(1, 1).encode(),
      requests: 1,
      errors: 0,
      startedAt: start + (s - 1) * 1000,
      endedAt: start + s * 1000,
      endpoints: endpoints.map((one) => ({ name: one.name, requests: one.requests, errors: one.errors ?? 0, histogram: histogramOf(one.latency, one.requests).encode() })),
      ...(s === 1 && errorGroups.length > 0 ? { errorGroups } : {}),
    };
    await transaction(ts.service.database, (tx) => storeIntervalEndpoints(tx, { ...owner, machineId }, snapshot));
  }
}
