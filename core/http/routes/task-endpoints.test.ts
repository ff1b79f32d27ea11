/**
 * GET /tasks/{id}/endpoints and /errors over intervals stored as the agent session stores them: two machines merged
 * from histograms (the pooled samples' percentiles, not averaged), the order, the run's window for requests/s, the
 * server-side guard of 200 names a run (5,000 names stored as 200 and `(other)`, totals intact), error groups summed
 * across machines and sorted by count, scopes, and other workspaces' or unknown tasks (404).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createMetricRun, type MetricRun } from '../../../tests/helpers/metric-points.ts';
import { freePort } from '../../../tests/helpers/service-process.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import type { ErrorGroup, MetricSnapshot } from '../../capabilities/load-tool.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { maxEndpointNames, otherEndpoint } from '../../domain/metrics/metric-recorder.ts';
import {
  type EndpointsMemo,
  readRunEndpoints,
  readRunErrors,
  rememberStoredInterval,
  runEndpointFigures,
  storeIntervalEndpoints,
} from '../../services/metrics/run-endpoints.ts';
import { sqlOf, transaction } from '../../services/sql.ts';

type Endpoint = { name: string; requests: number; errors: number; error_rate: number; requests_per_sec: number; p50: number; p95: number; p99: number; max: number };
type Group = { endpoint: string; kind: string; code: string; message: string; count: number };

let ts: TestService;
let owner: string;
const machineA = '00000000-0000-4000-8000-00000000000a';
const machineB = '00000000-0000-4000-8000-00000000000b';
const start = Date.UTC(2026, 10, 26, 10, 0, 0);

const histogramOf = (latencies: readonly number[]) => {
  const histogram = new LatencyHistogram();
  for (const ms of latencies) histogram.record(ms);
  return histogram;
};

interface IntervalSpec {
  machineId: string;
  /** Seconds after `start` the interval ends (it lasts one second). */
  s: number;
  endpoints: { name: string; latencies: readonly number[]; errors?: number }[];
  errorGroups?: ErrorGroup[];
}

/**
 * Stores an interval's endpoints and errors in one transaction, as the agent session does after the interval point;
 * with `memos`, as a replica with its memo does (store-metric-interval.ts).
 */
async function storeInterval(run: MetricRun, spec: IntervalSpec, memos?: EndpointsMemo): Promise<void> {
  const all = spec.endpoints.flatMap((endpoint) => endpoint.latencies);
  const snapshot: MetricSnapshot = {
    histogram: histogramOf(all).encode(),
    requests: all.length,
    errors: spec.endpoints.reduce((sum, endpoint) => sum + (endpoint.errors ?? 0), 0),
    startedAt: start + (spec.s - 1) * 1000,
    endedAt: start + spec.s * 1000,
    endpoints: spec.endpoints.map((endpoint) => ({
      name: endpoint.name,
      requests: endpoint.latencies.length,
      errors: endpoint.errors ?? 0,
      histogram: histogramOf(endpoint.latencies).encode(),
    })),
    ...(spec.errorGroups ? { errorGroups: spec.errorGroups } : {}),
  };
  const owner = { workspaceId: run.workspaceId, taskId: run.taskId, machineId: spec.machineId };
  const stored = await transaction(ts.service.database, (tx) => storeIntervalEndpoints(tx, owner, snapshot, memos));
  if (memos && stored) rememberStoredInterval(memos, stored);
}

const get = (taskId: string, what: 'endpoints' | 'errors', token = owner) => ts.request(`/api/v1/tasks/${taskId}/${what}`, { token });
async function read<T>(taskId: string, what: 'endpoints' | 'errors', token = owner): Promise<T> {
  const response = await get(taskId, what, token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** A: 190 fast requests a second to `GET /a` (10 ms), B: 10 slow ones (100..190 ms) to it, and `POST /b` failing on both. */
const fast = Array.from({ length: 190 }, () => 10);
const slow = Array.from({ length: 10 }, (_, i) => 100 + i * 10);
const failing = [50, 60];
let twoMachines: MetricRun;

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  owner = await ts.createUser('endpoints-owner');
  twoMachines = await createMetricRun(ts, owner, 'endpoints');
  // 90 seconds, so the rows of two minutes merge too.
  for (let s = 1; s <= 90; s++) {
    const group = (count: number): ErrorGroup => ({ endpoint: 'POST /b', kind: 'status', code: '500', message: 'status 500, expected below 400', count });
    await storeInterval(twoMachines, {
      machineId: machineA,
      s,
      endpoints: [
        { name: 'GET /a', latencies: fast },
        { name: 'POST /b', latencies: failing, errors: 2 },
      ],
      errorGroups: [group(2), ...(s <= 3 ? [{ endpoint: 'GET /a', kind: 'network', code: 'ECONNRESET', message: 'socket hang up', count: 1 } as const] : [])],
    });
    await storeInterval(twoMachines, { machineId: machineB, s, endpoints: [{ name: 'GET /a', latencies: slow }, { name: 'POST /b', latencies: failing, errors: 2 }], errorGroups: [group(2)] });
  }
}, 120_000);
afterAll(() => ts.stop());

describe('endpoints: merged across machines', () => {
  test('counts summed, percentiles of the pooled samples (within the histogram precision), sorted by requests', async () => {
    const endpoints = await read<Endpoint[]>(twoMachines.taskId, 'endpoints');
    expect(endpoints.map((endpoint) => endpoint.name)).toEqual(['GET /a', 'POST /b']);
    const [a, b] = endpoints as [Endpoint, Endpoint];
    const pooled = histogramOf([...fast, ...slow]);
    const samples = [...fast, ...slow].sort((x, y) => x - y);
    expect(a).toMatchObject({ requests: 200 * 90, errors: 0, error_rate: 0, p50: pooled.percentile(50), p95: pooled.percentile(95), p99: pooled.percentile(99), max: 190 });
    // The pooled samples' own nearest-rank p95 and p99, within the histogram's 1/1024.
    expect(Math.abs(a.p95 - samples[Math.ceil(0.95 * samples.length) - 1]!)).toBeLessThanOrEqual(samples[Math.ceil(0.95 * samples.length) - 1]! / 1024);
    expect(Math.abs(a.p99 - samples[Math.ceil(0.99 * samples.length) - 1]!)).toBeLessThanOrEqual(samples[Math.ceil(0.99 * samples.length) - 1]! / 1024);
    // An average of the two machines' p95 (10 and 185 ms) would be far off the merged 10 ms.
    expect(a.p95).toBeCloseTo(10, 1);
    expect(a.p99).toBeGreaterThanOrEqual(100);
    // Over the run's window of 90 s.
    expect(a.requests_per_sec).toBe(200);
    expect(b).toMatchObject({ requests: 4 * 90, errors: 4 * 90, error_rate: 1, requests_per_sec: 4, max: 60 });
    expect(b.p50).toBeCloseTo(50, 1);
    // 90 s over two minutes: the first minute's rows were folded into each machine's total of each endpoint, the open
    // minute keeps its own (2 machines x 2 endpoints each).
    const rows = await sqlOf(ts.service.database).all<{ closed: number; open: number }>(
      `select count(*) filter (where minute = -1)::int as closed, count(*) filter (where minute >= 0)::int as open from task_endpoint_minutes where task_id = ?`,
      [twoMachines.taskId],
    );
    expect(rows[0]).toEqual({ closed: 4, open: 4 });
    // The server-side function the thresholds read answers the same.
    expect(await readRunEndpoints(sqlOf(ts.service.database), twoMachines.workspaceId, twoMachines.taskId)).toEqual(endpoints);
    expect((await runEndpointFigures(sqlOf(ts.service.database), twoMachines.taskId)).get('GET /a')).toEqual({
      p50: a.p50,
      p95: a.p95,
      p99: a.p99,
      errorRate: 0,
      requestsPerSec: 200,
      totalRequests: 200 * 90,
    });
    // Another workspace's id reads nothing.
    expect(await readRunEndpoints(sqlOf(ts.service.database), crypto.randomUUID(), twoMachines.taskId)).toEqual([]);
  });

  test('errors: groups summed across machines, sorted by count', async () => {
    expect(await read<Group[]>(twoMachines.taskId, 'errors')).toEqual([
      { endpoint: 'POST /b', kind: 'status', code: '500', message: 'status 500, expected below 400', count: 4 * 90 },
      { endpoint: 'GET /a', kind: 'network', code: 'ECONNRESET', message: 'socket hang up', count: 3 },
    ]);
  });

  test('a run without per-endpoint results answers two empty arrays', async () => {
    const run = await createMetricRun(ts, owner, 'no endpoints');
    expect(await read<Endpoint[]>(run.taskId, 'endpoints')).toEqual([]);
    expect(await read<Group[]>(run.taskId, 'errors')).toEqual([]);
  });
});

describe('endpoints: per minute (timeline=true)', () => {
  type Minute = { t: number; requests_per_sec: number; error_rate: number; p95: number };
  test('each row carries its minutes: the closed one merged across machines, the open one read from both machines', async () => {
    const response = await ts.request(`/api/v1/tasks/${twoMachines.taskId}/endpoints?timeline=true`, { token: owner });
    expect(response.status, await response.clone().text()).toBe(200);
    const endpoints = (await response.json()) as (Endpoint & { timeline: Minute[] })[];
    const pooled = histogramOf([...fast, ...slow]);
    const [a, b] = endpoints;
    // Seconds 1..60 hold minute 10:00 (the interval's middle), 61..90 the half-measured minute 10:01: 200 a second in both.
    expect(a!.timeline).toEqual([
      { t: start / 1000, requests_per_sec: 200, error_rate: 0, p95: pooled.percentile(95) },
      { t: start / 1000 + 60, requests_per_sec: 200, error_rate: 0, p95: pooled.percentile(95) },
    ]);
    expect(b!.timeline.map((minute) => [minute.requests_per_sec, minute.error_rate])).toEqual([[4, 1], [4, 1]]);
    // The figures themselves are those without the timeline.
    const plain = await read<Endpoint[]>(twoMachines.taskId, 'endpoints');
    expect(endpoints.map(({ timeline: _, ...rest }) => rest)).toEqual(plain);
    expect(plain.every((one) => !('timeline' in one))).toBe(true);
    // The first minute is stored merged across machines: one row per endpoint.
    const rows = await sqlOf(ts.service.database).all<{ name: string; minute: string | number; requests: string | number }>(
      'select name, minute, requests from task_endpoint_timeline where task_id = ? order by name, minute',
      [twoMachines.taskId],
    );
    expect(rows.map((row) => [row.name, Number(row.minute), Number(row.requests)])).toEqual([
      ['GET /a', start / 60_000, 200 * 60],
      ['POST /b', start / 60_000, 4 * 60],
    ]);
  });

  test('timeline takes true or false only', async () => {
    const response = await ts.request(`/api/v1/tasks/${twoMachines.taskId}/endpoints?timeline=yes`, { token: owner });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBeString();
  });

  test('a kept answer is never stale: an interval stored after a read shows in the next read', async () => {
    const run = await createMetricRun(ts, owner, 'endpoints-fresh');
    await storeInterval(run, { machineId: machineA, s: 1, endpoints: [{ name: 'GET /a', latencies: fast }] });
    const first = await read<Endpoint[]>(run.taskId, 'endpoints');
    expect(await read<Endpoint[]>(run.taskId, 'endpoints')).toEqual(first);
    expect(first[0]!.requests).toBe(190);
    // Later intervals of the same and of the next minutes (the first minute is folded then): every read sees them.
    for (const s of [2, 61, 125]) {
      await storeInterval(run, { machineId: machineB, s, endpoints: [{ name: 'GET /a', latencies: slow }] });
      const next = await read<Endpoint[]>(run.taskId, 'endpoints');
      expect(next[0]!.requests).toBe(190 + 10 * [2, 61, 125].indexOf(s) + 10);
    }
    const timeline = (await (await ts.request(`/api/v1/tasks/${run.taskId}/endpoints?timeline=true`, { token: owner })).json()) as { timeline: Minute[] }[];
    expect(timeline[0]!.timeline.map((minute) => minute.requests_per_sec > 0)).toEqual([true, true, true]);
  });
});

describe('endpoints: the guard of 200 names a run', () => {
  test(`5,000 distinct names from two machines: ${maxEndpointNames} names and ${otherEndpoint} stored, totals intact`, async () => {
    const run = await createMetricRun(ts, owner, 'many names');
    // 25 intervals of 200 names each (an agent sends at most 201), the machines taking turns, so most names are new
    // to the run when they arrive; one error group each.
    let expectedRequests = 0;
    for (let i = 0; i < 25; i++) {
      const endpoints = Array.from({ length: 200 }, (_, j) => ({ name: `/item/${i * 200 + j}`, latencies: Array.from({ length: 1 + (j % 3) }, () => 5 + (j % 11)) }));
      expectedRequests += endpoints.reduce((sum, endpoint) => sum + endpoint.latencies.length, 0);
      await storeInterval(run, {
        machineId: i % 2 === 0 ? machineA : machineB,
        s: i + 1,
        endpoints,
        errorGroups: [{ endpoint: `/item/${i * 200}`, kind: 'status', code: '503', message: 'busy', count: 1 }],
      });
    }
    const [stored] = await sqlOf(ts.service.database).all<{ names: number }>('select count(*)::int as names from task_endpoint_names where task_id = ?', [run.taskId]);
    expect(stored!.names).toBe(maxEndpointNames + 1);
    const endpoints = await read<Endpoint[]>(run.taskId, 'endpoints');
    expect(endpoints).toHaveLength(maxEndpointNames + 1);
    expect(endpoints.at(-1)!.name).toBe(otherEndpoint);
    // The first 200 names the run saw are the ones kept.
    expect(new Set(endpoints.slice(0, -1).map((endpoint) => endpoint.name))).toEqual(new Set(Array.from({ length: maxEndpointNames }, (_, j) => `/item/${j}`)));
    expect(endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0)).toBe(expectedRequests);
    expect(endpoints.at(-1)!.max).toBe(15);
    // Error groups of folded names count under (other) too.
    const errors = await read<Group[]>(run.taskId, 'errors');
    expect(errors.reduce((sum, group) => sum + group.count, 0)).toBe(25);
    expect(errors.find((group) => group.endpoint === otherEndpoint)).toMatchObject({ kind: 'status', code: '503', count: 24 });
  });

  test('the answer folds names past 200 even when machines stored more together', async () => {
    const run = await createMetricRun(ts, owner, 'raced names');
    // As two machines racing past the guard would leave it: 203 names in the table.
    const endpoints = Array.from({ length: 203 }, (_, j) => ({ name: `/raced/${j}`, latencies: Array.from({ length: 300 - j }, () => 2) }));
    await sqlOf(ts.service.database).all('insert into task_endpoint_names (task_id, name) select ?, value from json_array_elements_text(?::json)', [
      run.taskId,
      JSON.stringify(endpoints.map((endpoint) => endpoint.name)),
    ]);
    await storeInterval(run, { machineId: machineA, s: 1, endpoints });
    const answer = await read<Endpoint[]>(run.taskId, 'endpoints');
    expect(answer).toHaveLength(maxEndpointNames + 1);
    expect(answer[0]!.name).toBe('/raced/0');
    expect(answer.at(-1)).toMatchObject({ name: otherEndpoint, requests: 100 + 99 + 98 });
  });
});

describe('endpoints: what a replica remembers', () => {
  test('two replicas with their memos taking turns store what no memo stores: the same figures, timelines and errors', async () => {
    // 3 minutes from two machines, 230 names coming over time (past the guard of 200), error groups, a name new to the
    // run in an error group only, and a late interval of an earlier minute (an agent's resend after a reconnect).
    let seed = 7;
    const random = () => ((seed = (seed * 1664525 + 1013904223) % 2 ** 32) / 2 ** 32);
    const specs: IntervalSpec[] = [];
    for (let s = 1; s <= 130; s++) {
      for (const [m, machineId] of [machineA, machineB].entries()) {
        // A new name each interval until all 230 came (by the second minute's end), and some the run has.
        const names = [`/n/${(2 * s + m) % 230}`, ...Array.from({ length: Math.floor(random() * 8) }, () => `/n/${Math.floor(random() * Math.min(230, 2 * s))}`)];
        specs.push({
          machineId,
          s,
          endpoints: [...new Set(names)].map((name) => ({ name, latencies: Array.from({ length: 1 + Math.floor(random() * 5) }, () => 1 + random() * 50), errors: random() < 0.2 ? 1 : 0 })),
          ...(random() < 0.3 ? { errorGroups: [{ endpoint: random() < 0.1 ? `/only-errors/${s}` : names[0]!, kind: 'status' as const, code: String(500 + (s % 3)), message: 'status', count: 1 }] } : {}),
        });
      }
      if (s === 125) specs.push({ machineId: machineA, s: 50, endpoints: [{ name: '/n/1', latencies: [7, 8] }, { name: '/n/2', latencies: [9] }] });
    }
    const plain = await createMetricRun(ts, owner, 'no memo');
    const remembered = await createMetricRun(ts, owner, 'two replicas');
    const replicas: EndpointsMemo[] = [new Map(), new Map()];
    for (const [i, spec] of specs.entries()) {
      await storeInterval(plain, spec);
      await storeInterval(remembered, spec, replicas[Math.floor(i / 7) % 2]);
    }
    const sql = sqlOf(ts.service.database);
    const answers = async (run: MetricRun) => ({
      endpoints: await readRunEndpoints(sql, run.workspaceId, run.taskId, { timeline: true }),
      errors: await readRunErrors(sql, run.workspaceId, run.taskId),
      names: (await sql.all<{ name: string }>('select name from task_endpoint_names where task_id = ? order by name', [run.taskId])).map((row) => row.name),
    });
    const expected = await answers(plain);
    // Past the guard (names seen in error groups only take places too).
    expect(expected.names).toHaveLength(maxEndpointNames + 1);
    expect(expected.endpoints.at(-1)!.name).toBe(otherEndpoint);
    expect(await answers(remembered)).toEqual(expected);
    // The memos spared statements: they know the run's names.
    expect(replicas.every((memo) => memo.get(remembered.taskId)!.names.size === expected.names.length)).toBe(true);
    // Closed minutes are still folded as they close: no more rows of them left than without memos, but for the late
    // interval's two (a replica that checked its minute already folds them with the next minute).
    const closedRows = async (run: MetricRun) =>
      (await sql.all<{ n: number }>('select count(*)::int as n from task_endpoint_minutes where task_id = ? and minute >= 0 and minute < ?', [run.taskId, Math.floor((start + 129_500) / 60_000)]))[0]!.n;
    expect(await closedRows(remembered)).toBeLessThanOrEqual((await closedRows(plain)) + 2);
  });
});

describe('endpoints: access', () => {
  test("an unknown id, and another workspace's task by its UUID or public id, answer the same 404", async () => {
    const task = (await (await ts.request(`/api/v1/tasks/${twoMachines.taskId}`, { token: owner })).json()) as { public_id: string };
    expect(await read<Endpoint[]>(task.public_id, 'endpoints')).toHaveLength(2);
    const stranger = await ts.createUser('endpoints-stranger');
    for (const what of ['endpoints', 'errors'] as const) {
      const answers = [];
      for (const [id, token] of [
        [twoMachines.taskId, stranger],
        [task.public_id, stranger],
        [crypto.randomUUID(), owner],
        ['not-an-id', owner],
      ] as const) {
        const response = await get(id, what, token);
        expect(response.status, `${what} ${id}`).toBe(404);
        answers.push(await response.json());
      }
      for (const body of answers) expect(body).toEqual({ error: 'not_found', message: answers[0]!.message });
    }
  });

  test('an API token needs runs:read', async () => {
    const token = async (scopes: string[]) => {
      const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: `ep ${scopes.join(' ')}`, scopes } });
      expect(created.status).toBe(201);
      return ((await created.json()) as { token: string }).token;
    };
    const refusedToken = await token(['metrics:read', 'tests:read']);
    const readToken = await token(['runs:read']);
    for (const what of ['endpoints', 'errors'] as const) {
      const refused = await get(twoMachines.taskId, what, refusedToken);
      expect(refused.status, what).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
      expect((await read<unknown[]>(twoMachines.taskId, what, readToken)).length).toBeGreaterThan(0);
    }
  });
});
