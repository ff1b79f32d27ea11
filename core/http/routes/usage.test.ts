import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { limitsOf } from '../../domain/plans.ts';
import { sqlOf } from '../../services/sql.ts';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { createMetricRun, insertPoints } from '../../../tests/helpers/metric-points.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let counter = 0;
// Mid-November 2026 (UTC) for every request here: the period and the reset date are known.
const now = new Date('2026-11-15T12:00:00Z');
const untilDecember = (Date.parse('2026-12-01T00:00:00Z') - now.getTime()) / 1000;
// Small budgets to reach: starter 3 calls, scale unlimited, enterprise the plans module's.
const budget = (plan: string) => (plan === 'starter' ? 3 : plan === 'scale' ? null : limitsOf(plan).aiToolCallsPerMonth);

beforeAll(async () => {
  ts = await startTestService({ boot: { usage: { now: () => now, aiToolCallBudget: budget } } });
});
afterAll(() => ts.stop());

/** A new user, signed in, owner of a workspace of their own on `plan`. */
async function owner(plan?: 'starter' | 'scale' | 'enterprise') {
  const name = `usage${++counter}`;
  const token = await ts.createUser(name);
  if (plan) expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan } })).status).toBe(200);
  const workspaceId = ((await (await ts.request('/api/v1/workspace', { token })).json()) as { id: string }).id;
  return { name, token, workspaceId };
}

const deduct = (token: string, init: RequestInit & { json?: unknown } = {}) => ts.request('/api/v1/usage/ai-tool-calls', { method: 'POST', token, ...init });
const usage = async (token: string, headers: Record<string, string> = {}) => {
  const response = await ts.request('/api/v1/usage', { token, headers });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    period: string;
    ai_tool_calls: { used: number; limit: number | null };
    machines: { used: number; limit: number | null };
    tests: { used: number; limit: number | null };
    storage: { log_bytes: number; metric_bytes: number };
  };
};

describe('POST /usage/ai-tool-calls', () => {
  test('deducts one call per request and says what is left of the month', async () => {
    const { token } = await owner();
    const first = await deduct(token);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ period: '2026-11', used: 1, limit: 50_000, remaining: 49_999 });
    expect(await (await deduct(token, { json: {} })).json()).toEqual({ period: '2026-11', used: 2, limit: 50_000, remaining: 49_998 });
    expect((await usage(token)).ai_tool_calls).toEqual({ used: 2, limit: 50_000 });
  });

  test('past the budget: 429 ai_budget_exhausted with the budget, the reset date and Retry-After; nothing counted', async () => {
    const { token } = await owner('starter');
    for (let used = 1; used <= 3; used++) expect(await (await deduct(token)).json()).toEqual({ period: '2026-11', used, limit: 3, remaining: 3 - used });
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await deduct(token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(untilDecember));
      expect(await refused.json()).toEqual({
        error: 'ai_budget_exhausted',
        message: 'this workspace has used its AI tool-call budget for 2026-11 (3 calls on the starter plan); it resets on 2026-12-01 at 00:00 UTC',
      });
    }
    expect((await usage(token)).ai_tool_calls).toEqual({ used: 3, limit: 3 });
  });

  test('a plan without a budget: limit and remaining null, and calls still counted', async () => {
    const { token } = await owner('scale');
    for (let used = 1; used <= 4; used++) expect(await (await deduct(token)).json()).toEqual({ period: '2026-11', used, limit: null, remaining: null });
    expect((await usage(token)).ai_tool_calls).toEqual({ used: 4, limit: null });
  });

  test('a lowered budget refuses at once when more was used already', async () => {
    const { token } = await owner();
    for (let i = 0; i < 5; i++) expect((await deduct(token)).status).toBe(200);
    expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan: 'starter' } })).status).toBe(200);
    expect((await deduct(token)).status).toBe(429);
    expect((await usage(token)).ai_tool_calls).toEqual({ used: 5, limit: 3 });
  });

  test('any member and any token of the workspace spends its one budget: a viewer, a tests:read token', async () => {
    const alice = await owner();
    const viewer = await ts.createUser(`viewer${++counter}`);
    await ts.request('/api/v1/auth/me', { token: viewer });
    const { invited } = await inviteAndAccept(ts, alice.token, `viewer${counter}`, 'viewer', viewer);
    expect(invited.status).toBe(201);
    const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: alice.token, json: { name: 'mcp', scopes: ['tests:read'] } });
    const readOnly = ((await created.json()) as { token: string }).token;

    expect((await deduct(viewer, { headers: { 'x-workspace-id': alice.workspaceId } })).status).toBe(200);
    const byToken = await deduct(readOnly);
    expect(byToken.status).toBe(200);
    expect(((await byToken.json()) as { used: number }).used).toBe(2);
    expect((await usage(readOnly)).ai_tool_calls.used).toBe(2);
    expect((await usage(viewer, { 'x-workspace-id': alice.workspaceId })).ai_tool_calls.used).toBe(2);
    // The viewer's own workspace has its own budget, untouched.
    expect((await usage(viewer)).ai_tool_calls.used).toBe(0);
  });

  test('bad input: a body with fields is 400, a body that is not JSON 415, no token 401, a foreign workspace 404', async () => {
    const { token } = await owner();
    const other = await owner();
    const withField = await deduct(token, { json: { calls: 2 } });
    expect(withField.status).toBe(400);
    expect(await withField.json()).toMatchObject({ error: 'bad_request', message: expect.any(String) });
    for (const body of ['5', '"one"', 'true', 'null', '[]']) {
      const refused = await deduct(token, { body, headers: { 'content-type': 'application/json' } });
      expect(refused.status, body).toBe(400);
      expect(((await refused.json()) as { error: string }).error, body).toBe('bad_request');
    }
    const text = await deduct(token, { body: 'one', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { error: string }).error).toBe('unsupported_media_type');
    expect((await ts.request('/api/v1/usage/ai-tool-calls', { method: 'POST' })).status).toBe(401);
    const foreign = await deduct(token, { headers: { 'x-workspace-id': other.workspaceId } });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: string }).error).toBe('not_found');
    // None of them counted.
    expect((await usage(token)).ai_tool_calls.used).toBe(0);
    expect((await usage(other.token)).ai_tool_calls.used).toBe(0);
  });
});

describe('GET /usage', () => {
  test("a new workspace: this month, nothing used, the plan's limits", async () => {
    const { token } = await owner('starter');
    expect(await usage(token)).toEqual({
      period: '2026-11',
      ai_tool_calls: { used: 0, limit: 3 },
      machines: { used: 0, limit: 2 },
      tests: { used: 0, limit: 25 },
      storage: { log_bytes: 0, metric_bytes: 0 },
    });
  });

  test("counts the workspace's machines, tests (not deleted ones), stored log bytes and metric point bytes, and no other workspace's", async () => {
    const { token, workspaceId } = await owner();
    const other = await owner();
    expect((await ts.request('/api/v1/machines', { method: 'POST', token, json: { name: 'g', hostname: 'usage-gen', ip_address: '10.0.0.1' } })).status).toBe(201);
    const run = await createMetricRun(ts, token, 'usage run');
    const gone = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'gone', tool: 'k6', script: 'export default function () {}' } });
    expect((await ts.request(`/api/v1/tests/${((await gone.json()) as { id: string }).id}`, { method: 'DELETE', token })).status).toBe(204);

    // Stored lines count by their UTF-8 text: 'héllo wörld' is 13 bytes, 'ok' 2.
    const stored = await ts.service.runs.logs.append(run.taskId, null, [
      { source: 'out', text: 'héllo wörld', ts: Date.now() },
      { source: 'err', text: 'ok', ts: Date.now() },
    ]);
    expect(stored.lines).toHaveLength(2);
    const t = Math.floor(Date.now() / 1000);
    await insertPoints(ts, run, Array.from({ length: 30 }, (_, i) => ({ machineId: crypto.randomUUID(), t: t - i, latencies: [5, 7, 9 + i] })));
    // And OTLP points of one series of the run.
    const sql = sqlOf(ts.service.database);
    const [series] = await sql.all<{ id: string }>(
      `insert into otel_series (workspace_id, task_id, name, unit, kind, labels, labels_key) values (?, ?, 'cpu', '1', 'gauge', '{}', '{}') returning id`,
      [workspaceId, run.taskId],
    );
    await sql.all(`insert into otel_points (series_id, time, value) select ?, to_timestamp(g), g from generate_series(1, 12) g`, [series!.id]);

    // Under 100 rows each, the estimate is every row's stored size.
    const [exact] = await sql.all<{ bytes: string }>(
      `select (select sum(pg_column_size(p.*)) from task_metric_points p where workspace_id = ?)
            + (select sum(pg_column_size(o.*)) from otel_points o where series_id = ?) as bytes`,
      [workspaceId, series!.id],
    );
    const report = await usage(token);
    expect(report).toEqual({
      period: '2026-11',
      ai_tool_calls: { used: 0, limit: 50_000 },
      machines: { used: 1, limit: null },
      tests: { used: 1, limit: null },
      storage: { log_bytes: 15, metric_bytes: Number(exact!.bytes) },
    });
    // Each run point is a row of a dozen columns and a histogram: far more than nothing, far less than a kilobyte.
    expect(report.storage.metric_bytes).toBeGreaterThan(30 * 100);
    expect(report.storage.metric_bytes).toBeLessThan(30 * 1000 + 12 * 100);
    expect((await usage(other.token)).storage).toEqual({ log_bytes: 0, metric_bytes: 0 });
    expect((await usage(other.token)).machines.used).toBe(0);
  });

  test('a token of any scope reads it; without a token 401', async () => {
    const { token: jwt } = await owner();
    const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: 'metrics only', scopes: ['metrics:read'] } });
    const scoped = ((await created.json()) as { token: string }).token;
    expect((await usage(scoped)).period).toBe('2026-11');
    expect((await ts.request('/api/v1/usage')).status).toBe(401);
  });
});
