/**
 * /metrics/catalog and /metrics/query through the REST API: sums and rates per step, percentiles from merged histograms
 * (not averaged), label filters (equality, regex, negation), bad input, scopes, and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createMetricRun, fastLatencies as fast, insertPoints, minuteAnHourAgo, type MetricRun, seedTwoMachineMinute, slowLatencies as slow } from '../../../tests/helpers/metric-points.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { metricAnswers } from '../../services/metrics/answer-cache.ts';
import { sqlOf } from '../../services/sql.ts';

let ts: TestService;
let owner: string;
let run: MetricRun;
const machineA = '00000000-0000-4000-8000-00000000000a';
const machineB = '00000000-0000-4000-8000-00000000000b';
const base = minuteAnHourAgo();
// Machine A is fast (10 ms), machine B slow (100..190 ms) and sends a twentieth of the requests: the merged p95 is 10 ms,
// the average of the two machines' p95 would be about 100 ms.

type Query = { metric: string; unit: string; step: number; by: string[]; series: { labels: Record<string, string>; points: [number, number][] }[] };
const get = (path: string, token = owner) => ts.request(`/api/v1/metrics${path}`, { token });
const query = async (params: string, token = owner) => {
  const response = await get(`/query?${params}`, token);
  expect(response.status).toBe(200);
  return (await response.json()) as Query;
};
const range = `start=${base}&end=${base + 60}`;

beforeAll(async () => {
  ts = await startTestService();
  owner = await ts.createUser('metrics-owner');
  run = await seedTwoMachineMinute(ts, owner, { base, machineA, machineB });
});
afterAll(() => ts.stop());

describe('metrics: catalog', () => {
  test('lists the metrics with the labels and values of the workspace runs; empty for a workspace without any', async () => {
    const catalog = (await (await get('/catalog')).json()) as { name: string; unit: string; labels: { name: string; values: string[] }[] }[];
    expect(catalog.map((m) => m.name)).toContain('latency_p95');
    const p95 = catalog.find((m) => m.name === 'latency_p95')!;
    expect(p95.unit).toBe('ms');
    expect(p95.labels).toEqual([
      { name: 'run', values: [run.taskId] },
      { name: 'machine', values: expect.arrayContaining([machineA, machineB]) },
      { name: 'test', values: [run.testId] },
    ]);
    const other = await ts.createUser('metrics-other');
    expect(await (await get('/catalog', other)).json()).toEqual([]);
  });
});

describe('metrics: query', () => {
  test('requests are summed per step and rates divide by the step', async () => {
    const requests = await query(`metric=requests&${range}&step=10s`);
    expect(requests).toMatchObject({ metric: 'requests', unit: 'requests', step: 10, by: ['run'] });
    expect(requests.series).toHaveLength(1);
    expect(requests.series[0]!.labels).toEqual({ run: run.taskId });
    expect(requests.series[0]!.points).toEqual(Array.from({ length: 6 }, (_, i) => [base + (i + 1) * 10, 2000]));
    const rate = await query(`metric=request_rate&${range}&step=10s&by=machine`);
    expect(rate.series.map((s) => [s.labels.machine, s.points[0]![1]])).toEqual([
      [machineA, 190],
      [machineB, 10],
    ]);
    const errors = await query(`metric=error_ratio&${range}&step=30s&by=`);
    expect(errors.series).toEqual([{ labels: {}, points: [[base + 30, 90 / 6000], [base + 60, 0]] }]);
  });

  test('percentiles per step come from the merged histogram of every machine, never from averaged percentiles', async () => {
    const merged = new LatencyHistogram();
    for (const ms of [...fast, ...slow]) merged.record(ms);
    const p95 = await query(`metric=latency_p95&${range}&step=10s`);
    expect(p95.series[0]!.points.map(([, v]) => v)).toEqual(Array(6).fill(merged.percentile(95)));
    expect(merged.percentile(95)).toBeCloseTo(10, 1);
    const p99 = await query(`metric=latency_p99&${range}&step=60s`);
    expect(p99.series[0]!.points).toEqual([[base + 60, merged.percentile(99)]]);
    expect(merged.percentile(99)).toBeGreaterThan(100);
    const perMachine = await query(`metric=latency_p95&${range}&step=60s&by=machine`);
    const p95Of = (values: readonly number[]) => {
      const one = new LatencyHistogram();
      for (const ms of values) one.record(ms);
      return one.percentile(95);
    };
    expect(perMachine.series.map((s) => s.points[0]![1])).toEqual([p95Of(fast), p95Of(slow)]);
    // What averaging the machines' percentiles would have said instead.
    expect((p95Of(fast) + p95Of(slow)) / 2).toBeGreaterThan(90);
  });

  test('label filters: equality, negation, regex (anchored), negated regex; repeated filters all hold', async () => {
    const machines = async (filter: string) => (await query(`metric=requests&${range}&step=60s&by=machine&${filter}`)).series.map((s) => s.labels.machine);
    expect(await machines(`machine=${machineA}`)).toEqual([machineA]);
    expect(await machines(`machine=!${machineA}`)).toEqual([machineB]);
    expect(await machines(`machine=~.*0b`)).toEqual([machineB]);
    expect(await machines(`machine=~0b`)).toEqual([]); // anchored, as in Prometheus
    expect(await machines(`machine=!~.*0b`)).toEqual([machineA]);
    expect(await machines(`machine=~.*&machine=!${machineB}`)).toEqual([machineA]);
    expect(await machines(`run=${run.taskId}`)).toEqual([machineA, machineB]);
    expect(await machines('run=not-a-uuid')).toEqual([]);
    // Default range: the last hour; nothing of ours is newer than base + 60.
    expect((await query('metric=requests&start=-10m')).series).toEqual([]);
  });

  test('format=columns: the same series aligned on shared times, a null where a series has no point', async () => {
    const user = await ts.createUser('metrics-columns');
    const sparse = await createMetricRun(ts, user, 'metrics-columns');
    // Machine A reports seconds 1, 2 and 5 (a quiet stretch from 3 to 4); machine B only second 2.
    await insertPoints(ts, sparse, [1, 2, 5].map((s) => ({ machineId: machineA, t: base + s, latencies: [10] })));
    await insertPoints(ts, sparse, [{ machineId: machineB, t: base + 2, latencies: [20, 20] }]);
    const params = `metric=requests&start=${base}&end=${base + 10}&step=1s&by=machine&run=${sparse.taskId}`;
    const points = await query(params, user);
    expect(points.series.map((s) => s.points)).toEqual([
      [[base + 1, 1], [base + 2, 1], [base + 5, 1]],
      [[base + 2, 2]],
    ]);
    for (let round = 0; round < 2; round++) {
      // The second time from the answers kept for the run (the points one, then the columns one).
      const response = await get(`/query?${params}&format=columns`, user);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        metric: 'requests',
        unit: 'requests',
        start: base,
        end: base + 10,
        step: 1,
        by: ['machine'],
        times: [base + 1, base + 2, base + 3, base + 5],
        series: [
          { labels: { machine: machineA }, values: [1, 1, null, 1] },
          { labels: { machine: machineB }, values: [null, 2, null, null] },
        ],
      });
    }
    // A point stored since: both shapes read it.
    await insertPoints(ts, sparse, [{ machineId: machineB, t: base + 3, latencies: [20] }]);
    const columns = (await (await get(`/query?${params}&format=columns`, user)).json()) as { times: number[]; series: { values: (number | null)[] }[] };
    // Second 3 now has a point: the quiet stretch is 4 alone.
    expect(columns.times).toEqual([base + 1, base + 2, base + 3, base + 4, base + 5]);
    expect(columns.series.map((s) => s.values)).toEqual([
      [1, 1, null, null, 1],
      [null, 2, 1, null, null],
    ]);
    expect((await query(`${params}&format=points`, user)).series[1]!.points).toEqual([[base + 2, 2], [base + 3, 1]]);
  });

  test('an answer is kept in the shape asked for: a columns read keeps one entry, not its points as well', async () => {
    const user = await ts.createUser('metrics-kept-shape');
    const run = await createMetricRun(ts, user, 'metrics-kept-shape');
    await insertPoints(ts, run, [1, 2, 3].map((s) => ({ machineId: machineA, t: base + s, latencies: [10] })));
    const params = `metric=requests&start=${base}&end=${base + 10}&step=1s&by=machine&run=${run.taskId}`;
    const before = metricAnswers.size.entries;
    for (let round = 0; round < 2; round++) expect((await get(`/query?${params}&format=columns`, user)).status).toBe(200);
    expect(metricAnswers.size.entries).toBe(before + 1);
    // The points, asked for once, are kept beside it, and read back the same.
    const points = await query(params, user);
    expect(metricAnswers.size.entries).toBe(before + 2);
    expect(await query(params, user)).toEqual(points);
    expect(metricAnswers.size.entries).toBe(before + 2);
  });

  test('bad input is a clear 400', async () => {
    const cases: [string, RegExp][] = [
      ['', /metric/],
      ['metric=nope', /unknown metric nope/],
      [`metric=requests&machine=~(unclosed`, /bad regular expression for machine/],
      [`metric=requests&color=red`, /unknown parameter color/],
      [`metric=requests&start=0&end=${base}&step=1s`, /at most 11000 per series/],
      [`metric=requests&start=${base}&end=${base - 10}`, /end must be after start/],
      [`metric=requests&start=yesterday`, /start must be unix seconds/],
      [`metric=requests&step=0`, /step must be a positive duration/],
      [`metric=requests&step=500ms`, /step must be at least 1s/],
      [`metric=requests&by=colour`, /by names labels/],
      [`metric=requests&metric=errors`, /metric may be given once/],
      [`metric=requests&format=csv`, /format/],
    ];
    for (const [params, message] of cases) {
      const response = await get(`/query?${params}`);
      expect(response.status, params).toBe(400);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error, params).toBe('bad_request');
      expect(body.message, params).toMatch(message);
    }
  });
});

describe('metrics: a kept answer is never stale', () => {
  test('the same query after a point was stored, or after a run was deleted, reads the rows as they are now', async () => {
    const user = await ts.createUser('metrics-fresh');
    const fresh = await createMetricRun(ts, user, 'metrics-fresh');
    await insertPoints(ts, fresh, [{ machineId: machineA, t: base + 5, latencies: [10, 10] }]);
    const params = `metric=requests&${range}&step=60s&run=${fresh.taskId}`;
    const first = await query(params, user);
    expect(await query(params, user)).toEqual(first);
    expect(first.series[0]!.points).toEqual([[base + 60, 2]]);
    // p99 too: a merged step (two points) and a regex filter, kept and then changed.
    const p99 = `metric=latency_p99&${range}&step=60s&run=~${fresh.taskId.slice(0, 8)}.*`;
    expect((await query(p99, user)).series[0]!.points).toEqual([[base + 60, 10]]);
    await insertPoints(ts, fresh, [{ machineId: machineB, t: base + 6, latencies: [10, 10, 500] }]);
    expect((await query(params, user)).series[0]!.points).toEqual([[base + 60, 5]]);
    expect((await query(p99, user)).series[0]!.points).toEqual([[base + 60, 500]]);
    // A run goes with its test (or workspace): its points and its change counter with it.
    await sqlOf(ts.service.database).all('delete from tasks where id = ?', [fresh.taskId]);
    expect((await query(params, user)).series).toEqual([]);
    expect((await query(p99, user)).series).toEqual([]);
  });
});

describe('metrics: access', () => {
  test('API tokens need metrics:read; another workspace never sees these runs, even when it names them', async () => {
    const scoped = await ts.apiToken('metrics-runs-only', ['runs:read']);
    expect((await get('/catalog', scoped.token)).status).toBe(403);
    expect((await get(`/query?metric=requests`, scoped.token)).status).toBe(403);
    const reader = await ts.apiToken('metrics-reader', ['metrics:read']);
    expect((await get('/catalog', reader.token)).status).toBe(200);
    const foreign = await query(`metric=requests&${range}&run=${run.taskId}`, reader.token);
    expect(foreign.series).toEqual([]);
    const regex = await query(`metric=latency_p95&${range}&machine=~.*&by=machine`, reader.token);
    expect(regex.series).toEqual([]);
    expect((await get('/catalog')).status).toBe(200);
    expect((await ts.request('/api/v1/metrics/catalog')).status).toBe(401);
  });
});
