/**
 * Thresholds through the whole service and the local agent: a run whose thresholds hold passes, one whose thresholds
 * fail ends failed naming them (with the verdict in its run.finished event), an abort threshold stops a 60 s run of
 * the built-in `http` tool at once, a rate threshold is not checked live on the first seconds of data, a run without
 * thresholds has no verdict, and editing the test afterwards leaves a past run's verdict as it was.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startDelayTarget } from '../helpers/engine-runs.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import type { TestService } from '../helpers/test-service.ts';

let fixture: ServiceWithAgent;
let ts: TestService;
let token: string;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  // Every answer after 20 ms: a p95 under 5 ms can never hold.
  target = startDelayTarget({ delayMs: () => 20 });
  fixture = await startServiceWithAgent('thresholds');
  ({ ts, token } = fixture);
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

interface ThresholdResult {
  metric: string;
  endpoint?: string;
  op: string;
  value: number;
  abort?: boolean;
  actual: number | null;
  ok: boolean;
}

interface TaskView {
  id: string;
  status: string;
  error: string | null;
  verdict: 'passed' | 'failed' | null;
  threshold_results: ThresholdResult[];
  p95: number;
  error_rate: number;
  total_requests: number;
  started_at: string | null;
  finished_at: string | null;
}

/**
 * A `custom` script printing `count` samples (latencies 5..9 ms, every 4th an error: error rate 0.25 for a multiple
 * of 4), `pause` seconds apart.
 */
const samples = (count: number, pause = 0) =>
  [
    '#!/bin/sh',
    'i=0',
    `while [ $i -lt ${count} ]; do`,
    '  i=$((i + 1))',
    '  if [ $((i % 4)) -eq 0 ]; then outcome=error; else outcome=ok; fi',
    '  echo "loadplane:sample $((5 + i % 5)) $outcome"',
    ...(pause > 0 ? [`  sleep ${pause}`] : []),
    'done',
  ].join('\n');

async function createTest(name: string, tool: string, script: string, thresholds?: unknown): Promise<string> {
  const response = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name, tool, script, ...(thresholds === undefined ? {} : { thresholds }) } });
  if (response.status !== 201) throw new Error(`POST /tests: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function start(testId: string, config?: Record<string, unknown>): Promise<string> {
  let configId: string | undefined;
  if (config) {
    const saved = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: `config ${crypto.randomUUID()}`, ...config } });
    if (saved.status !== 201) throw new Error(`POST /configs: ${saved.status} ${await saved.text()}`);
    configId = ((await saved.json()) as { id: string }).id;
  }
  const response = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, ...(configId ? { configId } : {}) } });
  if (response.status !== 202) throw new Error(`POST /tasks: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

const read = async (id: string) => (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as TaskView;

async function ended(id: string): Promise<TaskView> {
  let task: TaskView | null = null;
  await waitFor(
    async () => ['completed', 'failed', 'cancelled'].includes((task = await read(id)).status),
    90_000,
    () => `task ${id} to end: ${JSON.stringify(task)}`,
  );
  return task!;
}

/** The machine is free again (its agent confirmed whatever it was told to stop). */
async function machineOnline() {
  await waitFor(
    async () => ((await (await ts.request('/api/v1/machines', { token })).json()) as { status: string }[]).every((m) => m.status === 'online'),
    60_000,
    'the machine to be online again',
  );
}

async function finishedEvent(taskId: string): Promise<Record<string, unknown>> {
  const rows = await ts.service.database
    .fork()
    .getConnection()
    .execute(`select payload from outbox where task_id = ? and event = 'run.finished'`, [taskId]);
  expect(rows).toHaveLength(1);
  const payload = (rows[0] as { payload: unknown }).payload;
  return (typeof payload === 'string' ? JSON.parse(payload) : payload) as Record<string, unknown>;
}

describe('thresholds at the end of a run', () => {
  let failedRun: TaskView;
  let failedTestId: string;

  test('thresholds that hold: completed, verdict passed, each with its figure', async () => {
    const testId = await createTest('holds', 'custom', samples(40), [
      { metric: 'p95', op: '<', value: 100, abort: true },
      { metric: 'error_rate', op: '<=', value: 0.3 },
      { metric: 'p50', op: '>=', value: 5 },
    ]);
    const task = await ended(await start(testId));
    expect(task.status).toBe('completed');
    expect(task.error).toBeNull();
    expect(task.verdict).toBe('passed');
    expect(task.total_requests).toBe(40);
    expect(task.threshold_results).toEqual([
      { metric: 'p95', op: '<', value: 100, abort: true, actual: task.p95, ok: true },
      { metric: 'error_rate', op: '<=', value: 0.3, actual: 0.25, ok: true },
      { metric: 'p50', op: '>=', value: 5, actual: expect.any(Number), ok: true },
    ]);
    expect((await finishedEvent(task.id)).verdict).toBe('passed');
    await machineOnline();
  }, 120_000);

  test('a threshold that fails: the run ends failed although its machine succeeded, the error names it, verdict failed', async () => {
    // About 2 s of samples, so intervals are checked live: an abort threshold on an endpoint without figures does not
    // stop the run (nothing measured is no failure while it goes), but fails it at the end.
    failedTestId = await createTest('fails', 'custom', samples(40, 0.05), [
      { metric: 'error_rate', op: '<', value: 0.1 },
      { metric: 'p99', op: '<', value: 1000 },
      { metric: 'p95', endpoint: 'login', op: '<', value: 1000, abort: true },
    ]);
    failedRun = await ended(await start(failedTestId));
    expect(failedRun.status).toBe('failed');
    expect(failedRun.verdict).toBe('failed');
    expect(failedRun.error).toBe('thresholds failed: error_rate < 0.1 (actual 0.25); p95 of login < 1000 (no figures)');
    expect(failedRun.threshold_results.map((r) => [r.metric, r.actual, r.ok])).toEqual([
      ['error_rate', 0.25, false],
      ['p99', expect.any(Number), true],
      ['p95', null, false],
    ]);
    const event = await finishedEvent(failedRun.id);
    expect(event).toMatchObject({ status: 'failed', verdict: 'failed', error: failedRun.error });
    await machineOnline();
  }, 120_000);

  test("editing the test afterwards leaves the past run's verdict; a new run is judged by the new thresholds", async () => {
    const patched = await ts.request(`/api/v1/tests/${failedTestId}`, {
      method: 'PATCH',
      token,
      json: { thresholds: [{ metric: 'error_rate', op: '<=', value: 0.5 }] },
    });
    expect(patched.status).toBe(200);
    const again = await read(failedRun.id);
    expect(again).toMatchObject({ status: 'failed', verdict: 'failed', error: failedRun.error });
    expect(again.threshold_results).toEqual(failedRun.threshold_results);
    const next = await ended(await start(failedTestId));
    expect(next).toMatchObject({ status: 'completed', verdict: 'passed', error: null });
    expect(next.threshold_results).toEqual([{ metric: 'error_rate', op: '<=', value: 0.5, actual: 0.25, ok: true }]);
    await machineOnline();
  }, 120_000);

  test('a run without thresholds has no verdict', async () => {
    const task = await ended(await start(await createTest('plain', 'custom', samples(8))));
    expect(task).toMatchObject({ status: 'completed', verdict: null, threshold_results: [], error: null });
    expect((await finishedEvent(task.id)).verdict).toBeNull();
    await machineOnline();
  }, 120_000);

  test('a rate threshold is not checked live on the first seconds of data; it is at the end', async () => {
    // About 3 s of samples, under the 5 s a live rate check waits for: an impossible abort rate must not stop the run.
    const testId = await createTest('rate', 'custom', samples(30, 0.1), [{ metric: 'requests_per_sec', op: '>', value: 1_000_000, abort: true }]);
    const task = await ended(await start(testId));
    expect(task.total_requests).toBe(30);
    expect(task).toMatchObject({ status: 'failed', verdict: 'failed' });
    expect(task.error).toStartWith('thresholds failed: requests_per_sec > 1000000 (actual ');
    expect(task.error).not.toContain('stopped early');
    await machineOnline();
  }, 120_000);
});

describe('an abort threshold while the run goes', () => {
  test('stops a 60 s run of the http tool at once: failed, the threshold named, its agent told to stop', async () => {
    const script = `steps:\n  - {name: slow, method: GET, url: ${target.url}/}\n`;
    const testId = await createTest('abort', 'http', script, [
      { metric: 'p95', op: '<', value: 5, abort: true },
      { metric: 'error_rate', op: '<=', value: 0.5 },
    ]);
    const id = await start(testId, { vus: 2, duration: '60s' });
    const task = await ended(id);
    expect(task.status).toBe('failed');
    expect(task.verdict).toBe('failed');
    expect(task.error).toStartWith('thresholds failed: p95 < 5 (actual ');
    expect(task.error).toEndWith('; the run was stopped early (abort)');
    expect(task.total_requests).toBeGreaterThan(0);
    const [p95, errorRate] = task.threshold_results;
    expect(p95).toMatchObject({ metric: 'p95', op: '<', value: 5, abort: true, ok: false });
    expect(p95!.actual!).toBeGreaterThanOrEqual(20);
    expect(errorRate).toMatchObject({ metric: 'error_rate', actual: 0, ok: true });
    // Well before its end: the run lasted less than its configured 60 s.
    expect(Date.parse(task.finished_at!) - Date.parse(task.started_at!)).toBeLessThan(60_000);
    expect((await finishedEvent(id)).verdict).toBe('failed');

    // The agent was told to stop and confirmed: the machine is free again, the assignment cancelled, the run still failed.
    await machineOnline();
    const assignments = await ts.service.database
      .fork()
      .getConnection()
      .execute(`select status from task_assignments where task_id = ?`, [id]);
    expect(assignments.map((a: { status: string }) => a.status)).toEqual(['cancelled']);
    expect(await read(id)).toMatchObject({ status: 'failed', verdict: 'failed', error: task.error });
  }, 120_000);
});

describe('thresholds on an endpoint', () => {
  test("are checked on that endpoint's merged figures; a name the run never measured has no actual and fails", async () => {
    // 40 samples: "fast" at 5 ms, "slow" at 80 ms, alternating (the custom tool's named sample lines).
    const script = [
      '#!/bin/sh',
      'i=0',
      'while [ $i -lt 20 ]; do',
      '  i=$((i + 1))',
      '  echo "loadplane:sample 5 ok fast"',
      '  echo "loadplane:sample 80 ok slow"',
      'done',
    ].join('\n');
    const testId = await createTest('per endpoint', 'custom', script, [
      { metric: 'p95', endpoint: 'fast', op: '<', value: 20 },
      { metric: 'p50', endpoint: 'slow', op: '<', value: 20 },
      { metric: 'error_rate', endpoint: 'ghost', op: '<=', value: 0.1 },
    ]);
    const task = await ended(await start(testId));
    expect(task.verdict).toBe('failed');
    expect(task.status).toBe('failed');
    const [fast, slow, ghost] = task.threshold_results;
    expect(fast).toMatchObject({ endpoint: 'fast', ok: true });
    expect(fast!.actual!).toBeLessThan(20);
    expect(slow).toMatchObject({ endpoint: 'slow', ok: false });
    expect(slow!.actual!).toBeGreaterThanOrEqual(75);
    expect(ghost).toMatchObject({ endpoint: 'ghost', actual: null, ok: false });
    expect(task.error).toContain('slow');
    const endpoints = (await (await ts.request(`/api/v1/tasks/${task.id}/endpoints`, { token })).json()) as { name: string; requests: number }[];
    expect(endpoints.map((e) => [e.name, e.requests]).sort()).toEqual([['fast', 20], ['slow', 20]]);
  }, 120_000);
});
