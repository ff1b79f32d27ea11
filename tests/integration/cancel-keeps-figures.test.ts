/**
 * A run cancelled while it runs keeps what it measured until the cancel: its figures come from the interval points
 * at once, and the agent's summary (sent when it confirms the cancel) completes them. Before, a cancelled run showed
 * 0 requests: the task ended before any machine's summary arrived, and a summary after the end was dropped.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { taskLog } from '../helpers/engine-runs.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import type { TestService } from '../helpers/test-service.ts';

let fixture: ServiceWithAgent;
let ts: TestService;
let token: string;

beforeAll(async () => {
  fixture = await startServiceWithAgent('cancel-figures');
  ({ ts, token } = fixture);
}, 60_000);
afterAll(() => fixture?.stop());

interface TaskView {
  status: string;
  total_requests: number;
  error_rate: number;
  p50: number;
  p99: number;
}
const task = async (id: string) => (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as TaskView;

test('a cancelled run keeps its requests, errors and percentiles so far; the agent summary completes them exactly', async () => {
  // A request every 20 ms (latencies 5..9 ms, every 4th an error) until stopped; each sample is counted in the log too.
  const script = [
    '#!/bin/sh',
    'i=0',
    'while true; do',
    '  i=$((i + 1))',
    '  if [ $((i % 4)) -eq 0 ]; then outcome=error; else outcome=ok; fi',
    '  echo "loadplane:sample $((5 + i % 5)) $outcome"',
    '  echo "sent $i"',
    '  sleep 0.02',
    'done',
  ].join('\n');
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'cancel keeps figures', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const { id } = (await (await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } })).json()) as { id: string };

  // Cancel once several intervals have been stored (the agent sends one a second).
  await waitFor(async () => {
    const points = await ts.request(`/api/v1/metrics/query?metric=requests&run=${id}&start=-1h&step=1h`, { token });
    const body = (await points.json()) as { series: { points: [number, number][] }[] };
    return (body.series[0]?.points.reduce((sum, [, n]) => sum + n, 0) ?? 0) >= 40;
  }, 60_000, 'two seconds of stored samples');
  expect((await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token })).status).toBe(204);

  // At once: cancelled, with what the stored intervals hold.
  const atCancel = await task(id);
  expect(atCancel.status).toBe('cancelled');
  expect(atCancel.total_requests).toBeGreaterThanOrEqual(40);
  expect(atCancel.p50).toBeGreaterThanOrEqual(5);
  expect(atCancel.p99).toBeLessThan(10);

  // The agent confirms with its summary: every sample the script printed before it was stopped. The log stores the
  // lines read until the cancel, the summary counts until the agent stopped the script (a busy machine prints a few
  // more in between), so the log's count is a floor; the exact check is the error rate: every 4th sample of an
  // unbroken sequence is an error, which holds only if no sample was lost or counted twice.
  let printed = 0;
  const exact = (view: TaskView) =>
    view.total_requests >= printed && Math.abs(view.error_rate - Math.floor(view.total_requests / 4) / view.total_requests) < 1e-6;
  await waitFor(async () => {
    const sent = (await taskLog(ts, id)).flatMap((line) => /^sent (\d+)$/.exec(line)?.[1] ?? []).map(Number);
    printed = Math.max(0, ...sent);
    return printed > 0 && exact(await task(id));
  }, 60_000, () => `total_requests to reach the ${printed} samples printed`);
  const final = await task(id);
  expect(final.status).toBe('cancelled');
  expect(final.total_requests).toBeGreaterThanOrEqual(atCancel.total_requests);
  expect(final.error_rate).toBeCloseTo(Math.floor(final.total_requests / 4) / final.total_requests, 6);
}, 120_000);
