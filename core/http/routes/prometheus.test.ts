/**
 * The Prometheus HTTP API over run metrics, through the REST API: instant and range queries (counters, rate, sum by,
 * histogram_quantile over merged histograms, arithmetic), labels, label values, series, GET and POST forms, Prometheus'
 * error envelope for bad input, the metrics:read scope, and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { fastLatencies as fast, minuteAnHourAgo, type MetricRun, seedTwoMachineMinute, slowLatencies as slow } from '../../../tests/helpers/metric-points.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';

let ts: TestService;
let owner: string;
let run: MetricRun;
const machineA = '00000000-0000-4000-8000-0000000000aa';
const machineB = '00000000-0000-4000-8000-0000000000bb';
const base = minuteAnHourAgo();

type Answer = { status: string; data: { resultType: string; result: { metric: Record<string, string>; value?: [number, string]; values?: [number, string][] }[] } };
const prom = (path: string, token = owner, init: RequestInit = {}) => ts.request(`/api/v1/prometheus/api/v1${path}`, { token, ...init });
async function instant(query: string, time = base + 60, token = owner) {
  const response = await prom(`/query?${new URLSearchParams({ query, time: String(time) })}`, token);
  const body = (await response.json()) as Answer;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.status).toBe('success');
  return body.data;
}
const byMachine = (data: Answer['data']) => Object.fromEntries(data.result.map((r) => [r.metric.machine, Number(r.value![1])]));

beforeAll(async () => {
  ts = await startTestService();
  owner = await ts.createUser('prom-owner');
  run = await seedTwoMachineMinute(ts, owner, { base, machineA, machineB });
});
afterAll(() => ts.stop());

describe('prometheus API: queries', () => {
  test('a counter selector answers the cumulative count per run and machine, with its labels', async () => {
    const data = await instant(`loadplane_requests_total{run="${run.taskId}"}`);
    expect(data.resultType).toBe('vector');
    expect(data.result.map((r) => r.metric).sort((a, b) => a.machine!.localeCompare(b.machine!))).toEqual([
      { __name__: 'loadplane_requests_total', run: run.taskId, machine: machineA, test: run.testId },
      { __name__: 'loadplane_requests_total', run: run.taskId, machine: machineB, test: run.testId },
    ]);
    expect(byMachine(data)).toEqual({ [machineA]: 190 * 60, [machineB]: 600 });
    // Half-way, and past the look-back (5 minutes after the last point there is nothing).
    expect(byMachine(await instant('loadplane_requests_total', base + 30))).toEqual({ [machineA]: 190 * 30, [machineB]: 300 });
    expect((await instant('loadplane_requests_total', base + 60 + 301)).result).toEqual([]);
  });

  test('rate, increase, sum by, regex and negated matchers, arithmetic', async () => {
    expect((await instant('sum(rate(loadplane_requests_total[30s]))')).result).toEqual([{ metric: {}, value: [base + 60, '200'] }]);
    expect(byMachine(await instant('sum by (machine) (increase(loadplane_requests_total[1m]))'))).toEqual({ [machineA]: 11_400, [machineB]: 600 });
    expect(byMachine(await instant('sum(increase(loadplane_requests_total{machine=~".*aa"}[1m])) by (machine)'))).toEqual({ [machineA]: 11_400 });
    expect(byMachine(await instant('sum by (machine) (increase(loadplane_requests_total{machine!~".*aa"}[1m]))'))).toEqual({ [machineB]: 600 });
    expect(byMachine(await instant(`sum by (machine) (increase(loadplane_requests_total{machine!="${machineB}"}[1m]))`))).toEqual({ [machineA]: 11_400 });
    const ratio = await instant('sum(rate(loadplane_errors_total[1m])) / sum(rate(loadplane_requests_total[1m]))');
    expect(Number(ratio.result[0]!.value![1])).toBeCloseTo(90 / 12_000, 10);
    expect((await instant('2 * 21')).resultType).toBe('scalar');
    expect(byMachine(await instant('count by (machine) (loadplane_errors_total)'))).toEqual({ [machineA]: 1, [machineB]: 1 });
  });

  test('histogram_quantile reads the merged histogram of every machine (seconds), never averaged percentiles', async () => {
    const merged = new LatencyHistogram();
    for (const ms of [...fast, ...slow]) merged.record(ms);
    const p95 = await instant('histogram_quantile(0.95, sum(rate(loadplane_request_duration_seconds[1m])))');
    expect(p95.result).toEqual([{ metric: {}, value: [base + 60, String(merged.percentile(95) / 1000)] }]);
    const p99 = await instant('histogram_quantile(0.99, sum by (machine) (rate(loadplane_request_duration_seconds[1m])))');
    const slowOnly = new LatencyHistogram();
    for (const ms of slow) slowOnly.record(ms);
    expect(byMachine(p99)[machineB]).toBe(slowOnly.percentile(99) / 1000);
  });

  test('query_range answers a matrix, one value per step; POST with a form body answers alike', async () => {
    const params = { query: 'sum(rate(loadplane_requests_total[10s]))', start: String(base + 10), end: String(base + 60), step: '10s' };
    const get = (await (await prom(`/query_range?${new URLSearchParams(params)}`)).json()) as Answer;
    expect(get.data.resultType).toBe('matrix');
    expect(get.data.result).toEqual([{ metric: {}, values: Array.from({ length: 6 }, (_, i) => [base + 10 * (i + 1), '200']) }]);
    const post = await prom('/query_range', owner, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    expect(post.status).toBe(200);
    expect(await post.json()).toEqual(get);
  });

  test('labels, label values, series', async () => {
    expect(((await (await prom('/labels')).json()) as { data: string[] }).data).toEqual(['__name__', 'machine', 'run', 'test']);
    const names = (await (await prom('/label/__name__/values')).json()) as { data: string[] };
    expect(names.data).toEqual(['loadplane_errors_total', 'loadplane_request_duration_seconds', 'loadplane_requests_total']);
    expect(((await (await prom('/label/machine/values')).json()) as { data: string[] }).data).toEqual([machineA, machineB]);
    const series = (await (await prom(`/series?${new URLSearchParams({ 'match[]': `loadplane_errors_total{machine="${machineA}"}` })}`)).json()) as { data: unknown[] };
    expect(series.data).toEqual([{ __name__: 'loadplane_errors_total', run: run.taskId, machine: machineA, test: run.testId }]);
  });
});

describe('prometheus API: errors, scopes, tenants', () => {
  test("bad input answers 400 in Prometheus' error envelope", async () => {
    const cases: [string, RegExp][] = [
      [`/query?query=${encodeURIComponent('sum(rate(x[1m])')}`, /at the end of the query/],
      [`/query?query=${encodeURIComponent('loadplane_requests_total{machine=~"(("}')}`, /bad regular expression/],
      [`/query?query=${encodeURIComponent('topk(3, loadplane_requests_total)')}`, /unsupported function topk/],
      [`/query?query=${encodeURIComponent('histogram_quantile(0.9, loadplane_requests_total)')}&time=${base + 60}`, /native histograms/],
      ['/query', /missing query/],
      [`/query_range?query=up&start=0&end=${base}&step=1`, /exceeded maximum resolution/],
      [`/query_range?query=up&start=${base}&end=${base - 1}&step=1`, /end timestamp must not be before start time/],
      ['/series', /no match\[\] parameter/],
    ];
    for (const [path, message] of cases) {
      const response = await prom(path);
      expect(response.status, path).toBe(400);
      const body = (await response.json()) as { status: string; errorType: string; error: string };
      expect(body.status, path).toBe('error');
      expect(body.errorType, path).toBe('bad_data');
      expect(body.error, path).toMatch(message);
    }
  });

  test('psk_ tokens need metrics:read; another workspace sees none of these series, even naming them', async () => {
    const runsOnly = await ts.apiToken('prom-runs-only', ['runs:read']);
    expect((await prom('/labels', runsOnly.token)).status).toBe(403);
    const reader = await ts.apiToken('prom-reader', ['metrics:read']);
    expect((await instant(`loadplane_requests_total{run="${run.taskId}"}`, base + 60, reader.token)).result).toEqual([]);
    expect((await instant('sum(rate(loadplane_requests_total[1m]))', base + 60, reader.token)).result).toEqual([]);
    expect(((await (await prom('/label/run/values', reader.token)).json()) as { data: string[] }).data).toEqual([]);
    expect((await ts.service.app.handle(new Request('http://localhost/api/v1/prometheus/api/v1/labels'))).status).toBe(401);
  });
});
