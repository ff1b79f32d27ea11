/**
 * Metric queries over a REAL run's stored points (not rows a test wrote): a `custom` run on two in-process agents
 * sends curl requests to a loopback target with known delays (machine 0: 30 requests of 10 ms; machine 1: 12 of
 * 400 ms, the last 2 answered 500) and reports each with `loadplane:sample`. GET /metrics/catalog, /metrics/query and
 * the Prometheus API then agree with the task's final figures and with what the target served.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readTask, startSecondAgent, type Task, waitForEnd } from '../helpers/engine-runs.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const fastMs = 10;
const slowMs = 400; // far above a fast request's time on a busy machine: the p50 < slowMs bounds below rest on it
const fastCount = 30;
const slowCount = 12;
const slowErrors = 2;

/** `GET /ok/<ms>` answers 200 and `/fail/<ms>` 500, each after `ms` milliseconds; every answer is counted. */
function startTarget() {
  const counts = { served: 0, failed: 0 };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const [, kind, ms] = /^\/(ok|fail)\/(\d+)$/.exec(new URL(request.url).pathname) ?? [];
      if (!kind) return new Response('no such path', { status: 404 });
      // At least `ms`, even if a timer fires a little early: the latency bounds below rest on it.
      const until = performance.now() + Number(ms);
      while (performance.now() < until) await Bun.sleep(until - performance.now());
      counts.served++;
      if (kind === 'fail') counts.failed++;
      return new Response(kind, { status: kind === 'ok' ? 200 : 500 });
    },
  });
  return { counts, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

// The latency a sample reports is curl's own time_total, so it is never below the target's delay.
const script = (target: string) => `#!/bin/sh
command -v curl >/dev/null 2>&1 || { echo "curl is not installed on this machine"; exit 2; }
if [ "$LOADPLANE_MACHINE_INDEX" = 0 ]; then n=${fastCount}; ms=${fastMs}; else n=${slowCount}; ms=${slowMs}; fi
i=0
while [ "$i" -lt "$n" ]; do
  i=$((i + 1))
  kind=ok
  if [ "$LOADPLANE_MACHINE_INDEX" != 0 ] && [ "$i" -gt ${slowCount - slowErrors} ]; then kind=fail; fi
  set -- $(curl -s -o /dev/null -w '%{http_code} %{time_total}' "${target}/$kind/$ms")
  status=ok
  if [ "$1" = 000 ] || [ "$1" -ge 400 ]; then status=error; fi
  echo "loadplane:sample $(echo "$2" | awk '{printf "%.3f", $1 * 1000}') $status"
done
echo "machine $LOADPLANE_MACHINE_INDEX sent $i requests"
`;

let fixture: ServiceWithAgent;
let second: Awaited<ReturnType<typeof startSecondAgent>>;
let target: ReturnType<typeof startTarget>;
let task: Task & { test_id: string; started_at: string; finished_at: string };
let machines: string[];
/** A window holding the whole run, and a step as long as it: one step, one merged histogram. */
let start: number;
let end: number;

type Query = { metric: string; step: number; series: { labels: Record<string, string>; points: [number, number][] }[] };
type PromData = { resultType: string; result: { metric: Record<string, string>; value?: [number, string]; values?: [number, string][] }[] };

const get = async <T>(path: string): Promise<T> => {
  const response = await fixture.ts.request(`/api/v1${path}`, { token: fixture.token });
  const body = await response.text();
  expect(response.status, `${path}: ${body}`).toBe(200);
  return JSON.parse(body) as T;
};
const query = (params: Record<string, string>) => get<Query>(`/metrics/query?${new URLSearchParams({ start: String(start), end: String(end), ...params })}`);
const prom = async (path: string, params: Record<string, string>) => {
  const body = await get<{ status: string; data: PromData }>(`/prometheus/api/v1${path}?${new URLSearchParams(params)}`);
  expect(body.status).toBe('success');
  return body.data;
};
const sumOf = (answer: Query) => answer.series.flatMap((s) => s.points).reduce((total, [, value]) => total + value, 0);
/** Percentiles are rounded to the microsecond where they are stored (and Prometheus answers seconds). */
const closeToMs = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 3);

beforeAll(async () => {
  target = startTarget();
  fixture = await startServiceWithAgent('metrics-run');
  second = await startSecondAgent(fixture.ts, fixture.jwt, 'metrics-run-second');
  const { ts, token } = fixture;
  machines = ((await (await ts.request('/api/v1/machines', { token })).json()) as { id: string }[]).map((m) => m.id);
  expect(machines).toHaveLength(2);
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'metrics over a real run', tool: 'custom', script: script(target.url) } });
  expect(created.status).toBe(201);
  const testId = ((await created.json()) as { id: string }).id;
  const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, machineIds: machines } });
  expect(started.status).toBe(202);
  const id = ((await started.json()) as { id: string }).id;
  await waitForEnd(ts, token, id);
  task = (await readTask(ts, token, id)) as typeof task;
  start = Math.floor(Date.parse(task.started_at) / 1000) - 1;
  end = Math.ceil(Date.parse(task.finished_at) / 1000) + 1;
}, 120_000);

afterAll(async () => {
  await second?.shutdown();
  await fixture?.stop();
  target?.stop();
});

test('the run itself: both machines sent their share, the task counts what the target served', () => {
  expect(task.status).toBe('completed');
  expect(target.counts).toEqual({ served: fastCount + slowCount, failed: slowErrors });
  expect(task.total_requests).toBe(fastCount + slowCount);
  expect(task.error_rate).toBeCloseTo(slowErrors / (fastCount + slowCount), 6);
  // Most requests are fast, the top ones slow: the percentiles fall on either side of the slow delay.
  expect(task.p50!).toBeGreaterThanOrEqual(fastMs);
  expect(task.p50!).toBeLessThan(slowMs);
  expect(task.p95!).toBeGreaterThanOrEqual(slowMs);
  expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
});

test('GET /metrics/catalog lists this run, its two machines and its test', async () => {
  const catalog = await get<{ name: string; labels: { name: string; values: string[] }[] }[]>('/metrics/catalog');
  expect(catalog.map((m) => m.name)).toEqual(expect.arrayContaining(['requests', 'errors', 'latency_p50', 'latency_p95', 'latency_p99']));
  for (const metric of catalog) {
    expect(metric.labels).toEqual([
      { name: 'run', values: [task.id] },
      { name: 'machine', values: expect.arrayContaining(machines) },
      { name: 'test', values: [task.test_id] },
    ]);
    expect(metric.labels[1]!.values).toHaveLength(2);
  }
});

test('GET /metrics/query: requests and errors sum to the task figures, per machine to each share; percentiles agree', async () => {
  const step = `${end - start}s`;
  const requests = await query({ metric: 'requests', step: '1s', by: '', run: task.id });
  expect(sumOf(requests)).toBe(task.total_requests!);
  // Points are stored per interval (about a second), so the run is more than one point.
  expect(requests.series[0]!.points.length).toBeGreaterThan(1);
  const perMachine = await query({ metric: 'requests', step, by: 'machine', run: task.id });
  const shares = Object.fromEntries(perMachine.series.map((s) => [s.labels.machine!, s.points.reduce((n, [, v]) => n + v, 0)]));
  expect(Object.keys(shares).sort()).toEqual([...machines].sort());
  expect(Object.values(shares).sort((a, b) => a - b)).toEqual([slowCount, fastCount]);
  const slowMachine = Object.keys(shares).find((machine) => shares[machine] === slowCount)!;
  expect(sumOf(await query({ metric: 'errors', step, by: '' }))).toBe(Math.round(task.error_rate! * task.total_requests!));
  expect(sumOf(await query({ metric: 'errors', step, by: '' }))).toBe(slowErrors);

  // One step over the whole run merges every interval of both machines: the task's own percentiles.
  for (const percent of [50, 95, 99] as const) {
    const merged = await query({ metric: `latency_p${percent}`, step, by: '', run: task.id });
    expect(merged.series).toHaveLength(1);
    expect(merged.series[0]!.points).toHaveLength(1);
    closeToMs(merged.series[0]!.points[0]![1], task[`p${percent}`]!);
  }

  // A regex filter (anchored) on the slow machine's id picks its series alone: its p50 is one of the slow requests.
  const prefix = slowMachine.slice(0, 8);
  const slowP50 = await query({ metric: 'latency_p50', step, by: 'machine', machine: `~${prefix}.*` });
  expect(slowP50.series.map((s) => s.labels.machine)).toEqual([slowMachine]);
  expect(slowP50.series[0]!.points[0]![1]).toBeGreaterThanOrEqual(slowMs);
  expect((await query({ metric: 'latency_p50', step, by: 'machine', machine: `~${prefix.slice(1)}.*` })).series).toEqual([]);
  const others = await query({ metric: 'requests', step, by: 'machine', machine: `!~${prefix}.*` });
  expect(others.series.map((s) => s.labels.machine)).toEqual(machines.filter((m) => m !== slowMachine));
  expect(sumOf(others)).toBe(fastCount);
});

test('the Prometheus API over the same points: query_range counters, histogram_quantile, series, labels', async () => {
  const run = `run="${task.id}"`;
  const range = await prom('/query_range', { query: `sum by (machine) (loadplane_requests_total{${run}})`, start: String(start), end: String(end), step: '1s' });
  expect(range.resultType).toBe('matrix');
  const last = Object.fromEntries(range.result.map((r) => [r.metric.machine!, Number(r.values!.at(-1)![1])]));
  expect(Object.keys(last).sort()).toEqual([...machines].sort());
  expect(Object.values(last).reduce((a, b) => a + b, 0)).toBe(task.total_requests!);
  expect(Object.values(last).sort((a, b) => a - b)).toEqual([slowCount, fastCount]);
  // Counters are cumulative: never decreasing within a series.
  for (const series of range.result) {
    const values = series.values!.map(([, v]) => Number(v));
    expect(values).toEqual([...values].sort((a, b) => a - b));
  }
  const errors = await prom('/query', { query: `sum(loadplane_errors_total{${run}})`, time: String(end) });
  expect(errors.result.map((r) => Number(r.value![1]))).toEqual([slowErrors]);

  // The whole run in one window: the quantile of the merged histograms is the task's percentile (in seconds).
  for (const percent of [50, 95, 99] as const) {
    const answer = await prom('/query', { query: `histogram_quantile(0.${percent}, sum(rate(loadplane_request_duration_seconds{${run}}[${end - start}s])))`, time: String(end) });
    expect(answer.result).toHaveLength(1);
    closeToMs(Number(answer.result[0]!.value![1]) * 1000, task[`p${percent}`]!);
  }
  // Regex matchers (anchored): the slow machine alone, and everything but it.
  const slowMachine = Object.keys(last).find((machine) => last[machine] === slowCount)!;
  const slow = `machine=~"${slowMachine.slice(0, 8)}.*"`;
  const slowRequests = await prom('/query', { query: `sum(increase(loadplane_requests_total{${run}, ${slow}}[${end - start}s]))`, time: String(end) });
  expect(slowRequests.result.map((r) => Number(r.value![1]))).toEqual([slowCount]);
  const fastP50 = await prom('/query', {
    query: `histogram_quantile(0.5, sum by (machine) (rate(loadplane_request_duration_seconds{${run}, machine!~"${slowMachine.slice(0, 8)}.*"}[${end - start}s])))`,
    time: String(end),
  });
  expect(fastP50.result.map((r) => r.metric)).toEqual([{ machine: machines.find((m) => m !== slowMachine)! }]);
  expect(Number(fastP50.result[0]!.value![1]) * 1000).toBeGreaterThanOrEqual(fastMs);
  expect(Number(fastP50.result[0]!.value![1]) * 1000).toBeLessThan(slowMs);

  const series = await get<{ data: Record<string, string>[] }>(`/prometheus/api/v1/series?${new URLSearchParams({ 'match[]': `loadplane_requests_total{${run}}` })}`);
  expect(series.data.sort((a, b) => a.machine!.localeCompare(b.machine!))).toEqual(
    [...machines].sort().map((machine) => ({ __name__: 'loadplane_requests_total', run: task.id, machine, test: task.test_id })),
  );
  expect((await get<{ data: string[] }>('/prometheus/api/v1/labels')).data).toEqual(['__name__', 'machine', 'run', 'test']);
  expect((await get<{ data: string[] }>('/prometheus/api/v1/label/run/values')).data).toEqual([task.id]);
  expect((await get<{ data: string[] }>('/prometheus/api/v1/label/machine/values')).data).toEqual([...machines].sort());
});
