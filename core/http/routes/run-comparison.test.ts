/**
 * What a run means next to others: a test's baseline (set to a finished run of its own, refused for an unfinished run,
 * another test's run or another workspace's, cleared), GET /tasks/{id}/compare with the baseline and with a named run
 * (figures and relative changes exact for seeded figures, endpoints matched by name), 404 without a baseline, and
 * GET /tests/{id}/trend (finished runs only, oldest first, the last `limit`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { type FinishOptions, type SeededRun, seedFinishedRun, seedPendingRun, seedTest } from '../../../tests/helpers/finished-runs.ts';
import { relativeChange } from '../../services/metrics/run-comparison.ts';
import { sqlOf } from '../../services/sql.ts';

type Json = Record<string, unknown>;
interface Figures {
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  requests_per_sec: number;
  total_requests: number;
}
type Run = SeededRun;
interface EndpointFigures extends Omit<Figures, 'total_requests'> {
  name: string;
  requests: number;
  errors: number;
  max: number;
}
interface Comparison {
  base: Figures & Run & { verdict: string | null };
  current: Figures & Run & { verdict: string | null };
  changes: Record<string, number | null>;
  endpoints: { name: string; base: EndpointFigures | null; current: EndpointFigures | null; changes: Record<string, number | null> | null }[];
}

let ts: TestService;
let owner: string;
let stranger: string;

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const createTest = (token: string, name: string) => seedTest(ts, token, name);
const createRun = (token: string, testId: string) => seedPendingRun(ts, token, testId);
const finishedRun = (token: string, testId: string, figures: Figures, options: FinishOptions = {}) => seedFinishedRun(ts, token, testId, figures, options);

const put = (token: string, testId: string, taskId: string) => ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'PUT', token, json: { task_id: taskId } });
const compare = (token: string, runId: string, query: string) => ts.request(`/api/v1/tasks/${runId}/compare${query}`, { token });

const baseFigures: Figures = { p50: 100, p95: 200, p99: 400, error_rate: 0.01, requests_per_sec: 50, total_requests: 5000 };
const currentFigures: Figures = { p50: 112, p95: 150, p99: 400, error_rate: 0.03, requests_per_sec: 60, total_requests: 6000 };

let testId: string;
let baseRun: Run;
let currentRun: Run;

beforeAll(async () => {
  ts = await startTestService();
  owner = await ts.createUser('compare-owner');
  stranger = await ts.createUser('compare-stranger');
  testId = await createTest(owner, 'checkout');
  // GET /a in both (faster before), GET /old only in the base, POST /new only in the current run.
  baseRun = await finishedRun(owner, testId, baseFigures, {
    verdict: 'passed',
    finishedAt: new Date(Date.now() - 3_600_000),
    endpoints: [
      { name: 'GET /a', latency: 100, requests: 10, errors: 1 },
      { name: 'GET /old', latency: 50, requests: 5 },
    ],
  });
  currentRun = await finishedRun(owner, testId, currentFigures, {
    status: 'failed',
    verdict: 'failed',
    endpoints: [
      { name: 'GET /a', latency: 150, requests: 20 },
      { name: 'POST /new', latency: 80, requests: 2 },
    ],
  });
}, 120_000);
afterAll(() => ts.stop());

describe('baseline: set and cleared', () => {
  test('a finished run of the test (by public id) becomes the baseline; the test shows it everywhere; DELETE clears it (204, twice)', async () => {
    const set = await json<Json>(await put(owner, testId, baseRun.public_id));
    expect(set).toMatchObject({ id: testId, name: 'checkout', baseline_task_id: baseRun.id });
    expect((await json<Json>(await ts.request(`/api/v1/tests/${testId}`, { token: owner }))).baseline_task_id).toBe(baseRun.id);
    const listed = (await json<Json[]>(await ts.request('/api/v1/tests', { token: owner }))).find((one) => one.id === testId)!;
    expect(listed.baseline_task_id).toBe(baseRun.id);
    // A failed run finished too (by its UUID): it replaces the first.
    expect((await json<Json>(await put(owner, testId, currentRun.id))).baseline_task_id).toBe(currentRun.id);

    expect((await ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await json<Json>(await ts.request(`/api/v1/tests/${testId}`, { token: owner }))).baseline_task_id).toBeNull();
    expect((await ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'DELETE', token: owner })).status).toBe(204);
    // A new test has none.
    expect((await json<Json>(await ts.request(`/api/v1/tests/${await createTest(owner, 'fresh')}`, { token: owner }))).baseline_task_id).toBeNull();
    // Both changes are in the audit log.
    const audit = await json<{ action: string }[]>(await ts.request('/api/v1/audit-log?action=test.baseline_set', { token: owner }));
    expect(audit).toHaveLength(2);
    expect(await json<unknown[]>(await ts.request('/api/v1/audit-log?action=test.baseline_cleared', { token: owner }))).toHaveLength(1);
  });

  test('refused: an unfinished run (pending, cancelled, never started) 400, another test\'s run 400, the baseline unchanged', async () => {
    await json(await put(owner, testId, baseRun.id));
    const pending = await createRun(owner, testId);
    const refusedPending = await json<{ error: string; message: string }>(await put(owner, testId, pending.id), 400);
    expect(refusedPending.error).toBe('bad_request');
    expect(refusedPending.message).toBe(`run ${pending.public_id} is pending, not finished: a baseline must be a finished run (completed or failed)`);
    expect((await ts.request(`/api/v1/tasks/${pending.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await json<{ message: string }>(await put(owner, testId, pending.public_id), 400)).message).toContain(`run ${pending.public_id} was cancelled`);
    const neverStarted = await createRun(owner, testId);
    await sqlOf(ts.service.database).all(`update tasks set status = 'failed', finished_at = now() where id = ?`, [neverStarted.id]);
    expect((await json<{ message: string }>(await put(owner, testId, neverStarted.id), 400)).message).toContain('never started');

    const otherTest = await createTest(owner, 'other');
    const otherRun = await finishedRun(owner, otherTest, baseFigures);
    const refusedOther = await json<{ message: string }>(await put(owner, testId, otherRun.id), 400);
    expect(refusedOther.message).toBe(`run ${otherRun.public_id} is a run of another test: a baseline must be a run of this test`);
    expect((await json<Json>(await ts.request(`/api/v1/tests/${testId}`, { token: owner }))).baseline_task_id).toBe(baseRun.id);
  });

  test("another workspace's run or test: 404, as for ones that exist nowhere; a body without task_id 400", async () => {
    const theirTest = await createTest(stranger, 'theirs');
    const theirRun = await finishedRun(stranger, theirTest, baseFigures);
    const foreignRun = await json<{ error: string; message: string }>(await put(owner, testId, theirRun.id), 404);
    const nowhere = await json<{ error: string; message: string }>(await put(owner, testId, crypto.randomUUID()), 404);
    expect(foreignRun.error).toBe('not_found');
    expect(foreignRun.message.replace(theirRun.id, 'X')).toBe(nowhere.message.replace(/"[^"]+"/, `"X"`));
    expect((await json<{ error: string }>(await put(owner, testId, theirRun.public_id), 404)).error).toBe('not_found');
    // Their test, even with their own run: the test is not found for us.
    expect((await json<{ message: string }>(await put(owner, theirTest, theirRun.id), 404)).message).toBe('test not found');
    expect((await ts.request(`/api/v1/tests/${theirTest}/baseline`, { method: 'DELETE', token: owner })).status).toBe(404);
    expect((await json<Json>(await ts.request(`/api/v1/tests/${theirTest}`, { token: stranger }))).baseline_task_id).toBeNull();
    expect((await ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'PUT', token: owner, json: {} })).status).toBe(400);
    expect((await json<Json>(await ts.request(`/api/v1/tests/${testId}`, { token: owner }))).baseline_task_id).toBe(baseRun.id);
  });

  test('a token without tests:write may not set or clear a baseline (insufficient_scope)', async () => {
    const { token: readOnly } = await ts.apiToken('compare-reader', ['tests:read', 'runs:read']);
    expect((await json<{ error: string }>(await put(readOnly, testId, baseRun.id), 403)).error).toBe('insufficient_scope');
    expect((await ts.request(`/api/v1/tests/${testId}/baseline`, { method: 'DELETE', token: readOnly })).status).toBe(403);
  });
});

describe('compare', () => {
  test('with the baseline: both runs\' figures and verdicts, relative changes exact, endpoints matched by name', async () => {
    await json(await put(owner, testId, baseRun.id));
    const answer = await json<Comparison>(await compare(owner, currentRun.public_id, '?with=baseline'));
    expect(answer.base).toEqual({ id: baseRun.id, public_id: baseRun.public_id, ...baseFigures, verdict: 'passed' });
    expect(answer.current).toEqual({ id: currentRun.id, public_id: currentRun.public_id, ...currentFigures, verdict: 'failed' });
    expect(answer.changes).toEqual({ p50: 0.12, p95: -0.25, p99: 0, error_rate: 2, requests_per_sec: 0.2 });

    expect(answer.endpoints.map((one) => one.name)).toEqual(['GET /a', 'POST /new', 'GET /old']);
    const [a, added, gone] = answer.endpoints as [Comparison['endpoints'][number], Comparison['endpoints'][number], Comparison['endpoints'][number]];
    expect(a.base).toMatchObject({ requests: 100, errors: 10, error_rate: 0.1, requests_per_sec: 10 });
    expect(a.current).toMatchObject({ requests: 200, errors: 0, error_rate: 0, requests_per_sec: 20 });
    expect(a.base!.p95).toBeCloseTo(100, 0);
    expect(a.current!.p95).toBeCloseTo(150, 0);
    expect(a.changes).toEqual({
      p50: relativeChange(a.base!.p50, a.current!.p50),
      p95: relativeChange(a.base!.p95, a.current!.p95),
      p99: relativeChange(a.base!.p99, a.current!.p99),
      error_rate: -1,
      requests_per_sec: 1,
    });
    expect(a.changes!.p95).toBeCloseTo(0.5, 2);
    expect(added).toMatchObject({ base: null, changes: null, current: { name: 'POST /new', requests: 20 } });
    expect(gone).toMatchObject({ current: null, changes: null, base: { name: 'GET /old', requests: 50 } });
  });

  test('with a named run (UUID or public id): that run is the base; a base figure of 0 gives a null change', async () => {
    const quiet = await finishedRun(owner, testId, { p50: 0, p95: 100, p99: 0, error_rate: 0, requests_per_sec: 40, total_requests: 0 });
    for (const ref of [quiet.id, quiet.public_id]) {
      const answer = await json<Comparison>(await compare(owner, currentRun.id, `?with=${ref}`));
      expect(answer.base.id).toBe(quiet.id);
      expect(answer.base.verdict).toBeNull();
      expect(answer.changes).toEqual({ p50: null, p95: 0.5, p99: null, error_rate: null, requests_per_sec: 0.5 });
      // The quiet run has no endpoints: every row has the current side only.
      expect(answer.endpoints.map((one) => [one.name, one.base, one.changes])).toEqual([
        ['GET /a', null, null],
        ['POST /new', null, null],
      ]);
    }
    // Reversed: the base run compared with the current one.
    const reversed = await json<Comparison>(await compare(owner, baseRun.id, `?with=${currentRun.public_id}`));
    expect(reversed.changes.requests_per_sec).toBe(relativeChange(60, 50));
    expect(reversed.changes.p95).toBe(relativeChange(150, 200));
  });

  test('404 without a baseline; 404 for another workspace\'s run (either side); 400 without with', async () => {
    const bare = await createTest(owner, 'no baseline');
    const run = await finishedRun(owner, bare, baseFigures);
    const none = await json<{ error: string; message: string }>(await compare(owner, run.id, '?with=baseline'), 404);
    expect(none.error).toBe('not_found');
    expect(none.message).toContain('has no baseline');
    // A cleared baseline is none too.
    await json(await put(owner, bare, run.id));
    expect((await compare(owner, run.id, '?with=baseline')).status).toBe(200);
    await ts.request(`/api/v1/tests/${bare}/baseline`, { method: 'DELETE', token: owner });
    expect((await compare(owner, run.id, '?with=baseline')).status).toBe(404);

    const theirs = await finishedRun(stranger, await createTest(stranger, 'theirs too'), baseFigures);
    const foreign = await json<{ message: string }>(await compare(owner, currentRun.id, `?with=${theirs.id}`), 404);
    expect(foreign.message).toBe((await json<{ message: string }>(await compare(owner, currentRun.id, `?with=${crypto.randomUUID()}`), 404)).message);
    expect((await compare(owner, theirs.public_id, `?with=${currentRun.id}`)).status).toBe(404);
    expect((await compare(stranger, currentRun.id, '?with=baseline')).status).toBe(404);

    expect((await compare(owner, currentRun.id, '')).status).toBe(400);
    const blank = await json<{ error: string; message: string }>(await compare(owner, currentRun.id, '?with='), 400);
    expect(blank.message).toContain('with is required');
  });
});

describe('trend', () => {
  test("the test's finished runs only, oldest first; limit keeps the last N; bad limits 400; another workspace's test 404", async () => {
    const trendTest = await createTest(owner, 'trend');
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const figures = (p95: number): Figures => ({ p50: p95 / 2, p95, p99: p95 * 2, error_rate: 0, requests_per_sec: 10, total_requests: 100 });
    // Finished out of creation order: the trend goes by the time they finished.
    const firstAt = at(30);
    const second = await finishedRun(owner, trendTest, figures(120), { finishedAt: at(20) });
    const first = await finishedRun(owner, trendTest, figures(100), { finishedAt: firstAt, verdict: 'passed' });
    const third = await finishedRun(owner, trendTest, figures(130), { finishedAt: at(10), status: 'failed', verdict: 'failed' });
    // Left out: a cancelled run, a pending one, one that never started, another test's run.
    await finishedRun(owner, trendTest, figures(999), { finishedAt: at(5), status: 'cancelled' });
    await createRun(owner, trendTest);
    const neverStarted = await createRun(owner, trendTest);
    await sqlOf(ts.service.database).all(`update tasks set status = 'failed', finished_at = now() where id = ?`, [neverStarted.id]);
    await finishedRun(owner, testId, figures(777), { finishedAt: at(1) });

    const trend = await json<Json[]>(await ts.request(`/api/v1/tests/${trendTest}/trend`, { token: owner }));
    expect(trend.map((point) => point.id)).toEqual([first.id, second.id, third.id]);
    expect(trend[0]).toEqual({
      id: first.id,
      public_id: first.public_id,
      finished_at: firstAt.toISOString(),
      status: 'completed',
      verdict: 'passed',
      ...figures(100),
    });
    expect(trend[2]).toMatchObject({ status: 'failed', verdict: 'failed', p95: 130 });
    const lastTwo = await json<Json[]>(await ts.request(`/api/v1/tests/${trendTest}/trend?limit=2`, { token: owner }));
    expect(lastTwo.map((point) => point.id)).toEqual([second.id, third.id]);
    expect((await json<Json[]>(await ts.request(`/api/v1/tests/${trendTest}/trend?limit=`, { token: owner }))).length).toBe(3);
    for (const bad of ['0', '201', 'ten', '-1', '1.5']) {
      const refused = await json<{ message: string }>(await ts.request(`/api/v1/tests/${trendTest}/trend?limit=${bad}`, { token: owner }), 400);
      expect(refused.message).toBe('limit must be a whole number from 1 to 200');
    }
    expect(await json<Json[]>(await ts.request(`/api/v1/tests/${await createTest(owner, 'never ran')}/trend`, { token: owner }))).toEqual([]);
    expect((await ts.request(`/api/v1/tests/${trendTest}/trend`, { token: stranger })).status).toBe(404);
  });

  test('at most 200 runs, the newest', async () => {
    const busy = await createTest(owner, 'busy');
    const runs: Run[] = [];
    for (let batch = 0; batch < 7; batch++) runs.push(...(await Promise.all(Array.from({ length: batch < 6 ? 30 : 23 }, () => createRun(owner, busy)))));
    // Finished a minute apart, in creation order.
    await sqlOf(ts.service.database).all(
      `update tasks set status = 'completed', started_at = now() - interval '1 day', finished_at = now() - (r.n * interval '1 minute')
       from json_to_recordset(?::json) as r(id uuid, n int) where tasks.id = r.id`,
      [JSON.stringify(runs.map((run, index) => ({ id: run.id, n: runs.length - index })))],
    );
    const trend = await json<Json[]>(await ts.request(`/api/v1/tests/${busy}/trend?limit=200`, { token: owner }));
    expect(trend.map((point) => point.id)).toEqual(runs.slice(3).map((run) => run.id));
  }, 60_000);
});
