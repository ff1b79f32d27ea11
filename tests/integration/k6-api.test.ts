/** The real k6 through the whole service: API -> dispatcher -> agent -> k6 -> merged figures, checked against the target's own count. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findK6, k6MissingReason, requireOrSkip } from '../helpers/k6-binary.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import type { TestService } from '../helpers/test-service.ts';

const k6 = findK6();
let ts: TestService;
let token: string;
let fixture: ServiceWithAgent | null = null;
let target: ReturnType<typeof Bun.serve>;
let served = 0;
let failed = 0;

beforeAll(async () => {
  if (!k6) return;
  target = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      served++;
      if (new URL(request.url).pathname === '/flaky' && served % 5 === 0) {
        failed++;
        return new Response('boom', { status: 500 });
      }
      await Bun.sleep(2);
      return new Response('ok');
    },
  });
  fixture = await startServiceWithAgent('k6-user');
  ({ ts, token } = fixture);
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop(true);
});

async function run(script: string, config: Record<string, unknown>) {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'k6 via api', tool: 'k6', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const configResponse = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: 'k6 config', ...config } });
  const { id: configId } = (await configResponse.json()) as { id: string };
  const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, configId } });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  for (let i = 0; i < 600; i++) {
    const task = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Record<string, number | string | null>;
    if (task.status === 'completed' || task.status === 'failed') return task;
    await Bun.sleep(100);
  }
  throw new Error('k6 run did not finish');
}

test('k6 run through the service: total_requests equals the target count; the figures are plausible', async () => {
  if (!requireOrSkip(k6 ? null : k6MissingReason, 'the k6 API suite')) return;
  const before = served;
  const failedBefore = failed;
  const base = `http://127.0.0.1:${target.port}`;
  const task = await run(`import http from 'k6/http';\nexport default function () { http.get('${base}/ok'); http.get('${base}/flaky'); }\n`, { vus: 4, duration: '3s' });
  expect(task.status).toBe('completed');
  const requests = served - before;
  expect(task.total_requests).toBe(requests);
  expect(requests).toBeGreaterThan(100);
  expect(task.error_rate as number).toBeCloseTo((failed - failedBefore) / requests, 4);
  expect(task.p50 as number).toBeGreaterThan(0);
  expect(task.p95 as number).toBeGreaterThanOrEqual(task.p50 as number);
  expect(task.p99 as number).toBeGreaterThanOrEqual(task.p95 as number);
  // Plausible, not timed: room for a loaded machine, while a unit slip (µs read as ms, ×1000) is still caught.
  expect(task.p99 as number).toBeLessThan(10_000);
  // Requests over the measured window (first sample to last): not under 2 s, since k6 starts iterations for the 3 s the
  // config asked for however fast the machine, nor over those 3 s plus k6's 30 s graceful stop however slow; a rate per
  // millisecond, or over the wrong window, would fall outside.
  const rps = task.requests_per_sec as number;
  expect(rps).toBeGreaterThan(requests / 33);
  expect(rps).toBeLessThan(requests / 2);
  // The interval snapshots are kept as the run's time series, and add up to the run.
  const points: { requests: number }[] = await ts.service.database
    .fork()
    .getConnection()
    .execute('select requests from task_metric_points where task_id = ?', [task.id]);
  expect(points.length).toBeGreaterThanOrEqual(2);
  expect(points.reduce((sum, p) => sum + Number(p.requests), 0)).toBe(requests);
}, 60_000);

test('crossed k6 thresholds end the task failed with the reason', async () => {
  if (!requireOrSkip(k6 ? null : k6MissingReason, 'the k6 API suite')) return;
  const base = `http://127.0.0.1:${target.port}`;
  const script = `import http from 'k6/http';\nexport const options = { thresholds: { http_req_failed: ['rate<0.01'] } };\nexport default function () { http.get('${base}/flaky'); }\n`;
  const task = await run(script, { vus: 2, duration: '2s' });
  expect(task.status).toBe('failed');
  expect(String(task.error)).toContain('thresholds');
  expect(task.total_requests as number).toBeGreaterThan(0);
}, 60_000);
