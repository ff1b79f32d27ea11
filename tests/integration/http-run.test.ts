/**
 * The built-in `http` tool through the whole service and a real (sandboxed, where bubblewrap exists) agent against a
 * loopback target that counts per path: total_requests and error_rate against the target's own counts, per-step
 * errors in the run's log summary, percentiles within the target's delays, stages, a script refused with 400 naming
 * the step, and a cancel that leaves no engine process behind. Nothing needs installing: the engine is in the plugin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cancelLeavesNothing, expectLiveLog, expectRefused, processesOfTask, startAccepted, taskLog, waitForEnd } from '../helpers/engine-runs.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

/** Answers after `delayMs` (so every latency is at least that), counting per path; `/fail` is 500, `/text` lacks "welcome". */
function startPathTarget(delayMs: number) {
  const served = new Map<string, number>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      served.set(path, (served.get(path) ?? 0) + 1);
      await Bun.sleep(delayMs);
      if (path === '/fail') return new Response('internal error', { status: 500 });
      if (path === '/text') return new Response('nothing to see here');
      if (path === '/created') return new Response(await request.text(), { status: 201 });
      return new Response('welcome');
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    count: (path: string) => served.get(path) ?? 0,
    total: () => [...served.values()].reduce((sum, count) => sum + count, 0),
    reset: () => served.clear(),
    stop: () => server.stop(true),
  };
}

const delayMs = 3;
let fixture: ServiceWithAgent;
let target: ReturnType<typeof startPathTarget>;

beforeAll(async () => {
  target = startPathTarget(delayMs);
  fixture = await startServiceWithAgent('http-user');
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

const script = (base: string) => `
base_url: ${base}
defaults:
  headers: {x-run: integration}
steps:
  - name: home
    method: GET
    url: /
    expect: {body_contains: welcome}
  - name: create
    method: POST
    url: /created
    body: {item: 1}
    expect: {status: 201, body_contains: '"item":1'}
  - name: broken
    method: GET
    url: /fail
  - name: wrong text
    method: GET
    url: /text
    expect: {body_contains: welcome}
`;

/** The summary row of `step` in a run's log: [requests, errors, status, network, check]. */
function summaryRow(log: string[], step: string): number[] {
  const row = log.find((line) => line.startsWith(`${step} `) && /^\S.*\s\d+\s+\d+\s+\d+\s+\d+\s+\d+\s/.test(line));
  if (!row) throw new Error(`no summary row for ${step} in:\n${log.join('\n')}`);
  return row.slice(step.length).trim().split(/\s+/).slice(0, 5).map(Number);
}

describe('the http tool through the service and an agent', () => {
  test('every agent offers http, whatever engines it has', async () => {
    const machines = (await (await fixture.ts.request('/api/v1/machines', { token: fixture.token })).json()) as { tools: { tool: string; version: string | null }[] }[];
    expect(machines).toHaveLength(1);
    expect(machines[0]!.tools).toContainEqual({ tool: 'http', version: null });
  });

  test('vus + duration: total_requests and error_rate are the target\'s own counts; per-step errors in the log summary', async () => {
    const { ts, token } = fixture;
    target.reset();
    const id = await startAccepted(ts, token, { tool: 'http', script: script(target.url), config: { vus: 3, duration: '2s' } });
    const task = await waitForEnd(ts, token, id);
    const log = await taskLog(ts, id);
    expect(task.status, log.join('\n')).toBe('completed');
    const failures = target.count('/fail') + target.count('/text');
    expect(target.count('/')).toBeGreaterThan(5);
    expect(task.total_requests).toBe(target.total());
    expect(task.error_rate).toBeCloseTo(failures / target.total(), 5); // six decimals in the task view
    // Every latency is at least the target's delay; p50 <= p95 <= p99, plausible (a unit slip would be 1000 times off).
    expect(task.p50!).toBeGreaterThanOrEqual(delayMs - 0.5);
    expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
    expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
    expect(task.p99!).toBeLessThan(10_000);
    // The summary table, per step: requests, errors, status, network, check.
    expect(summaryRow(log, 'home')).toEqual([target.count('/'), 0, 0, 0, 0]);
    expect(summaryRow(log, 'create')).toEqual([target.count('/created'), 0, 0, 0, 0]);
    expect(summaryRow(log, 'broken')).toEqual([target.count('/fail'), target.count('/fail'), target.count('/fail'), 0, 0]);
    expect(summaryRow(log, 'wrong text')).toEqual([target.count('/text'), target.count('/text'), 0, 0, target.count('/text')]);
    expect(log).toContain(`[http] broken: ${target.count('/fail')} × status 500: status 500, expected below 400`);
    // Snapshot lines are metrics, not log.
    expect(log.some((line) => line.startsWith('LOADPLANE_'))).toBe(false);
    expect(log.some((line) => /^\[http\] \d+\.\ds {2}VUs \d+ {2}requests \d+/.test(line))).toBe(true);
  }, 120_000);

  test('stages: ramps within the peak, and the target\'s count is total_requests', async () => {
    const { ts, token } = fixture;
    target.reset();
    const id = await startAccepted(ts, token, {
      tool: 'http',
      script: script(target.url),
      config: { stages: [{ duration: '1s', target: 2 }, { duration: '2s', target: 4 }, { duration: '1s', target: 0 }] },
    });
    const task = await waitForEnd(ts, token, id);
    const log = await taskLog(ts, id);
    expect(task.status, log.join('\n')).toBe('completed');
    expect(target.total()).toBeGreaterThan(20);
    expect(task.total_requests).toBe(target.total());
    const vus = log.flatMap((line) => /^\[http\] \d+\.\ds {2}VUs (\d+) /.exec(line)?.[1] ?? []).map(Number);
    expect(vus.length).toBeGreaterThan(0);
    expect(Math.max(...vus)).toBeLessThanOrEqual(4);
    expect(log.find((line) => line.startsWith('[http] 4 steps'))).toBe('[http] 4 steps, stages 2 VUs over 1s, 4 VUs over 2s, 0 VUs over 1s; a request times out after 30s');
  }, 120_000);

  test('a bad script: 400 naming the step and the field', async () => {
    const { ts, token } = fixture;
    await expectRefused(ts, token, { tool: 'http', script: 'steps:\n  - {name: login, method: FETCH, url: "http://127.0.0.1:1/"}\n' }, 'steps[0] ("login"): method "FETCH" is not one of');
    await expectRefused(ts, token, { tool: 'http', script: 'steps:\n  - {method: GET, url: /home}\n' }, 'steps[0]: url "/home" is relative but the script has no base_url');
  }, 30_000);

  test('cancel: the task ends cancelled and no engine process of it is left', async () => {
    const { ts, token } = fixture;
    target.reset();
    const id = await startAccepted(ts, token, { tool: 'http', script: script(target.url), config: { vus: 4, duration: '10m' } });
    await expectLiveLog(ts, token, id, '[http] 4 steps, 4 VUs for 10m; a request times out after 30s');
    const deadline = Date.now() + 30_000;
    while (target.total() < 20 && Date.now() < deadline) await Bun.sleep(50);
    expect(target.total()).toBeGreaterThanOrEqual(20);
    await cancelLeavesNothing(ts, token, id, () => processesOfTask(id));
  }, 120_000);
});
