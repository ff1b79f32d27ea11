/**
 * GET /tasks/{id}/timeseries: buckets merged across machines (percentiles of the combined samples, not averaged), rates
 * and error rates per bucket, the step's default and bounds, bad steps, scopes and roles, other workspaces, and a real
 * run whose series grows while its agents report.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { createMetricRun, fastLatencies as fast, insertPoints, minuteAnHourAgo, type MetricRun, type PointSpec, slowLatencies as slow } from '../../../tests/helpers/metric-points.ts';
import { type HelloSocket, sayHello } from '../../../tests/helpers/hello-socket.ts';
import { freePort } from '../../../tests/helpers/service-process.ts';
import { agentToken } from '../../../tests/helpers/service-with-agent.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { bumpRunPoints } from '../../services/metrics/metric-changes.ts';
import { sqlOf } from '../../services/sql.ts';

type Point = { t: number; requests_per_sec: number; error_rate: number; p50: number; p95: number; p99: number; vus: number };
type Series = { step: number; points: Point[] };

let ts: TestService;
let owner: string;
let workspaceId: string;
const machineA = '00000000-0000-4000-8000-00000000000a';
const machineB = '00000000-0000-4000-8000-00000000000b';
const base = minuteAnHourAgo();

/** Machine A: 190 fast requests a second (9 errors a second in the first 10 s); B: 10 slow ones, and from s = 11 a slower tail. */
const twoMachinePoints = (): PointSpec[] => {
  const points: PointSpec[] = [];
  for (let s = 1; s <= 20; s++) {
    points.push({ machineId: machineA, t: base + s, latencies: fast, errors: s <= 10 ? 9 : 0 });
    points.push({ machineId: machineB, t: base + s, latencies: s <= 10 ? slow : slow.map((ms) => ms * 4) });
  }
  return points;
};
let twoMachines: MetricRun;

const get = (taskId: string, query = '', token = owner, headers: Record<string, string> = {}) =>
  ts.request(`/api/v1/tasks/${taskId}/timeseries${query}`, { token, headers });
const series = async (taskId: string, query = '', token = owner) => {
  const response = await get(taskId, query, token);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Series;
};
const histogramOf = (latencies: readonly number[]) => {
  const histogram = new LatencyHistogram();
  for (const ms of latencies) histogram.record(ms);
  return histogram;
};

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  owner = await ts.createUser('timeseries-owner');
  twoMachines = await createMetricRun(ts, owner, 'timeseries');
  workspaceId = twoMachines.workspaceId;
  await insertPoints(ts, twoMachines, twoMachinePoints());
});
afterAll(() => ts.stop());

describe('timeseries: merged buckets', () => {
  test('one point a second: requests/s summed across machines, error rate per bucket, percentiles of the combined samples', async () => {
    const answer = await series(twoMachines.taskId);
    expect(answer.step).toBe(1);
    expect(answer.points.map((p) => p.t)).toEqual(Array.from({ length: 20 }, (_, i) => base + i));
    for (const [i, point] of answer.points.entries()) {
      const s = i + 1;
      const latenciesB = s <= 10 ? slow : slow.map((ms) => ms * 4);
      const combined = histogramOf([...fast, ...latenciesB]);
      expect(point).toEqual({
        t: base + i,
        requests_per_sec: 200,
        error_rate: s <= 10 ? 9 / 200 : 0,
        p50: combined.percentile(50),
        p95: combined.percentile(95),
        p99: combined.percentile(99),
        vus: 0,
      });
    }
    // What an average of the machines' percentiles would have said is far off the merged figure.
    const first = answer.points[0]!;
    const averaged = (histogramOf(fast).percentile(95) + histogramOf(slow).percentile(95)) / 2;
    expect(first.p95).toBeCloseTo(10, 1);
    expect(averaged).toBeGreaterThan(50);
    expect(first.p99).toBeGreaterThan(100);
  });

  test('a 10 s step merges ten intervals of two machines: rate over the step, errors over requests, percentiles of all 2000 samples', async () => {
    const answer = await series(twoMachines.taskId, '?step=10');
    expect(answer.step).toBe(10);
    const bucket = (from: number) => {
      const samples: number[] = [];
      for (let s = from; s < from + 10; s++) samples.push(...fast, ...(s <= 10 ? slow : slow.map((ms) => ms * 4)));
      return histogramOf(samples);
    };
    const [early, late] = [bucket(1), bucket(11)];
    expect(answer.points).toEqual([
      { t: base, requests_per_sec: 200, error_rate: 90 / 2000, p50: early.percentile(50), p95: early.percentile(95), p99: early.percentile(99), vus: 0 },
      { t: base + 10, requests_per_sec: 200, error_rate: 0, p50: late.percentile(50), p95: late.percentile(95), p99: late.percentile(99), vus: 0 },
    ]);
    // B's slower tail moves the merged p99 (B's 5 % of samples are all above it), not the p50.
    expect(answer.points[1]!.p99).toBeGreaterThan(answer.points[0]!.p99 * 2);
    expect(answer.points[1]!.p50).toBe(answer.points[0]!.p50);
  });

  test('a step that does not divide the run: the last bucket holds what is left, and every request is counted once', async () => {
    const answer = await series(twoMachines.taskId, '?step=7');
    expect(answer.points.map((p) => p.t)).toEqual([base, base + 7, base + 14]);
    expect(answer.points.map((p) => p.requests_per_sec)).toEqual([1400 / 7, 1400 / 7, 1200 / 7]);
    expect(answer.points.map((p) => p.error_rate)).toEqual([63 / 1400, 27 / 1400, 0]);
  });

  test('quiet seconds are buckets with zeros; a run without intervals has no points', async () => {
    const gappy = await createMetricRun(ts, owner, 'timeseries-gap');
    await insertPoints(ts, gappy, [
      { machineId: machineA, t: base + 1, latencies: [5, 5, 5, 5], errors: 1 },
      { machineId: machineA, t: base + 4, latencies: [7, 7] },
    ]);
    expect((await series(gappy.taskId)).points.map(({ t, requests_per_sec, error_rate, p50 }) => ({ t, requests_per_sec, error_rate, p50 }))).toEqual([
      { t: base, requests_per_sec: 4, error_rate: 0.25, p50: 5 },
      { t: base + 1, requests_per_sec: 0, error_rate: 0, p50: 0 },
      { t: base + 2, requests_per_sec: 0, error_rate: 0, p50: 0 },
      { t: base + 3, requests_per_sec: 2, error_rate: 0, p50: 7 },
    ]);
    const empty = await createMetricRun(ts, owner, 'timeseries-empty');
    expect(await series(empty.taskId)).toEqual({ step: 1, points: [] });
    expect(await series(empty.taskId, '?step=60')).toEqual({ step: 60, points: [] });
  });
});

describe('timeseries: a kept answer is never stale', () => {
  test('points stored or deleted after a read show in the next read, per step asked', async () => {
    const run = await createMetricRun(ts, owner, 'timeseries-fresh');
    await insertPoints(ts, run, [{ machineId: machineA, t: base + 1, latencies: [5, 5] }]);
    const first = await series(run.taskId);
    expect(await series(run.taskId)).toEqual(first);
    expect(first.points.map((p) => p.requests_per_sec)).toEqual([2]);
    await insertPoints(ts, run, [{ machineId: machineB, t: base + 1, latencies: [9, 9, 9] }]);
    expect((await series(run.taskId)).points.map((p) => p.requests_per_sec)).toEqual([5]);
    expect((await series(run.taskId, '?step=5')).points.map((p) => p.requests_per_sec)).toEqual([1]);
    // A point gone (the newest one), its run's change counter bumped as a retention prune does: computed again.
    const sql = sqlOf(ts.service.database);
    await sql.all('delete from task_metric_points where task_id = ? and machine_id = ?', [run.taskId, machineB]);
    const [bump, bumpParams] = bumpRunPoints(run.taskId);
    await sql.all(bump, bumpParams);
    expect((await series(run.taskId)).points.map((p) => p.requests_per_sec)).toEqual([2]);
  });
});

describe('timeseries: the step', () => {
  // Points 100 s apart over 10,000 s: a long run, where the default and the bounds matter.
  let long: MetricRun;
  const longBase = base - 20_000;
  beforeAll(async () => {
    long = await createMetricRun(ts, owner, 'timeseries-long');
    const points: PointSpec[] = [{ machineId: machineA, t: longBase + 1, latencies: [3] }];
    for (let i = 1; i <= 100; i++) points.push({ machineId: i % 2 ? machineA : machineB, t: longBase + i * 100, latencies: [4, 5], errors: 1 });
    await insertPoints(ts, long, points);
  });

  test('by default a round step that keeps a long run under about 500 points; the first bucket starts with the run', async () => {
    const answer = await series(long.taskId);
    expect(answer.step).toBe(30);
    expect(answer.points).toHaveLength(Math.ceil(10_000 / 30));
    expect(answer.points[0]!.t).toBe(longBase);
    expect(answer.points.reduce((sum, p) => sum + p.requests_per_sec * answer.step, 0)).toBeCloseTo(201, 6);
    // An empty or absent step is the default.
    expect((await series(long.taskId, '?step=')).step).toBe(30);
  });

  test('an explicit step is used when the answer stays bounded, raised when it would give more than 5000 points', async () => {
    const hourly = await series(long.taskId, '?step=3600');
    expect(hourly.step).toBe(3600);
    expect(hourly.points.map((p) => p.t)).toEqual([longBase, longBase + 3600, longBase + 7200]);
    // Interval i (i = 1..100) has its middle at 100 i - 0.5 s: 1..36 in the first hour, with the run's first interval.
    expect(hourly.points.map((p) => Math.round(p.requests_per_sec * 3600))).toEqual([1 + 36 * 2, 36 * 2, 28 * 2]);
    const fine = await series(long.taskId, '?step=1');
    expect(fine.step).toBe(2);
    expect(fine.points).toHaveLength(5000);
    expect(fine.points.reduce((sum, p) => sum + p.requests_per_sec * fine.step, 0)).toBeCloseTo(201, 6);
    const seven = await series(long.taskId, '?step=7');
    expect(seven.step).toBe(7);
    expect(seven.points).toHaveLength(Math.ceil(10_000 / 7));
  });

  test('a step that is not a whole number of seconds in 1..3600 is a 400 naming it', async () => {
    for (const step of ['0', '3601', '-5', '1.5', 'abc', '10s', '99999999999']) {
      const response = await get(long.taskId, `?step=${encodeURIComponent(step)}`);
      expect(response.status, step).toBe(400);
      const body = (await response.json()) as Record<string, string>;
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      expect(body.error).toBe('bad_request');
      expect(body.message).toContain('step');
    }
  });
});

describe('timeseries: access', () => {
  test("an unknown id, and another workspace's task by its UUID or public id, answer the same 404", async () => {
    const task = (await (await ts.request(`/api/v1/tasks/${twoMachines.taskId}`, { token: owner })).json()) as { public_id: string };
    expect((await series(task.public_id)).points).toHaveLength(20);
    const stranger = await ts.createUser('timeseries-stranger');
    const answers = [];
    for (const [id, token] of [
      [twoMachines.taskId, stranger],
      [task.public_id, stranger],
      [crypto.randomUUID(), owner],
      ['not-an-id', owner],
    ] as const) {
      const response = await get(id, '?step=10', token);
      expect(response.status, id).toBe(404);
      answers.push(await response.json());
    }
    for (const body of answers) expect(body).toEqual({ error: 'not_found', message: answers[0]!.message });
    // The id is checked before the step: a bad step on another workspace's task reveals nothing either.
    expect((await get(twoMachines.taskId, '?step=0', stranger)).status).toBe(404);
  });

  test('an API token needs runs:read (metrics:read alone is refused); a viewer of the workspace may read it', async () => {
    const token = async (scopes: string[]) => {
      const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: `ts ${scopes.join(' ')}`, scopes } });
      expect(created.status).toBe(201);
      return ((await created.json()) as { token: string }).token;
    };
    for (const scopes of [['metrics:read'], ['tests:read', 'runs:write']]) {
      const refused = await get(twoMachines.taskId, '', await token(scopes));
      expect(refused.status, scopes.join()).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
    }
    expect((await series(twoMachines.taskId, '', await token(['runs:read']))).points).toHaveLength(20);

    const viewer = await ts.createUser('timeseries-viewer');
    // Invitations find people who have signed in once.
    await ts.request('/api/v1/auth/me', { token: viewer });
    expect((await inviteAndAccept(ts, owner, 'timeseries-viewer', 'viewer', viewer)).invited.status).toBe(201);
    const asViewer = await get(twoMachines.taskId, '?step=10', viewer, { 'x-workspace-id': workspaceId });
    expect(asViewer.status).toBe(200);
    expect(((await asViewer.json()) as Series).points).toHaveLength(2);
  });
});

describe('timeseries: live', () => {
  let sockets: HelloSocket[] = [];
  afterAll(async () => {
    for (const socket of sockets) await socket.close();
  });

  test('while two agents report, each read shows the intervals so far; the finished run keeps its series', async () => {
    const origin = await ts.listen();
    const jwt = await ts.createUser('timeseries-live');
    const agent = await agentToken(ts, jwt, 'timeseries-live-agent');
    sockets = [await sayHello(origin, agent, { hostname: 'ts-live-1', tools: ['custom'] }), await sayHello(origin, agent, { hostname: 'ts-live-2', tools: ['custom'] })];
    const machineIds = sockets.map((socket) => socket.welcome!.machineId);
    const created = await ts.request('/api/v1/tests', { method: 'POST', token: jwt, json: { name: 'live', tool: 'custom', script: 'echo hi' } });
    const testId = ((await created.json()) as { id: string }).id;
    const started = await ts.request('/api/v1/tasks', { method: 'POST', token: jwt, json: { testId, transport: 'sse', machineIds } });
    expect(started.status).toBe(202);
    const taskId = ((await started.json()) as { id: string }).id;

    const assignmentOf = async (socket: HelloSocket) => {
      for (let waited = 0; waited < 15_000; waited += 50) {
        const assign = socket.messages.find((m) => m.type === 'assign') as unknown as { assignment: { assignmentId: string } } | undefined;
        if (assign) return assign.assignment.assignmentId;
        await Bun.sleep(50);
      }
      throw new Error('no assignment arrived');
    };
    const assignments = await Promise.all(sockets.map(assignmentOf));
    sockets.forEach((socket, i) => socket.send({ type: 'started', assignmentId: assignments[i] }));

    const runStart = Math.floor(Date.now() / 1000) - 30;
    const report = (second: number) =>
      sockets.forEach((socket, i) => {
        const histogram = histogramOf(i === 0 ? [10, 10, 10] : [100]);
        const snapshot = { histogram: histogram.encode(), requests: histogram.count, errors: i, startedAt: (runStart + second) * 1000, endedAt: (runStart + second + 1) * 1000 };
        socket.send({ type: 'metrics', assignmentId: assignments[i], snapshot });
      });
    const seriesWith = async (points: number) => {
      for (let waited = 0; waited < 15_000; waited += 50) {
        const answer = await series(taskId, '', jwt);
        if (answer.points.length >= points && answer.points[points - 1]!.requests_per_sec === 4) return answer;
        await Bun.sleep(50);
      }
      throw new Error(`the series did not reach ${points} points`);
    };

    expect(await series(taskId, '', jwt)).toEqual({ step: 1, points: [] });
    report(0);
    report(1);
    const early = await seriesWith(2);
    expect(((await (await ts.request(`/api/v1/tasks/${taskId}`, { token: jwt })).json()) as { status: string }).status).toBe('running');
    expect(early.points).toHaveLength(2);
    report(2);
    report(3);
    report(4);
    const later = await seriesWith(5);
    expect(later.points).toHaveLength(5);
    expect(later.points.slice(0, 2)).toEqual(early.points);
    const merged = histogramOf([10, 10, 10, 100]);
    for (const [i, point] of later.points.entries()) {
      expect(point).toEqual({ t: runStart + i, requests_per_sec: 4, error_rate: 0.25, p50: merged.percentile(50), p95: merged.percentile(95), p99: merged.percentile(99), vus: 0 });
    }

    const summary = { histogram: histogramOf([10]).encode(), requests: 1, errors: 0, startedAt: runStart * 1000, endedAt: (runStart + 5) * 1000 };
    sockets.forEach((socket, i) => socket.send({ type: 'finished', assignmentId: assignments[i], status: 'completed', exitCode: 0, summary }));
    for (let waited = 0; ; waited += 50) {
      const task = (await (await ts.request(`/api/v1/tasks/${taskId}`, { token: jwt })).json()) as { status: string };
      if (task.status === 'completed') break;
      if (waited > 15_000) throw new Error(`the run did not finish: ${task.status}`);
      await Bun.sleep(50);
    }
    expect(await series(taskId, '', jwt)).toEqual(later);
  }, 60_000);
});
