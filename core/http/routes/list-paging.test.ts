/** Every list route pages the same way: ?limit, ?cursor, Link and X-Next-Cursor, and a byte budget per page. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { Membership } from '../../domain/entities/membership.ts';
import { UserProfile } from '../../domain/entities/user-profile.ts';

let ts: TestService;
let owner: string;
/** The webhook whose deliveries are listed (routes with :id are called with it). */
let webhookId = '';
const concrete = (path: string) => path.replace(':id', webhookId);

/** The /api/v1 GET routes whose 200 answer is an array, read from the app itself so a new list cannot slip by. */
function listRoutes() {
  return ts.service.app.routes
    .filter((route) => route.method === 'GET' && route.path.startsWith('/api/v1/'))
    // The metric catalog is the fixed list of metric definitions (ten), not a collection of resources: never paged.
    .filter((route) => route.path !== '/api/v1/metrics/catalog')
    // Bounded by definition, answered whole: a run's endpoints (at most 200 names and `(other)`, contract) and its error
    // groups (at most 500 and one `(other)` per kind), and the caller's own workspaces (the switcher shows them all).
    .filter((route) => !['/api/v1/tasks/:id/endpoints', '/api/v1/tasks/:id/errors', '/api/v1/auth/me/workspaces'].includes(route.path))
    // A test's trend: its last `limit` finished runs (at most 200), oldest first, for a chart; older runs are paged by
    // GET /tasks?test_id=, so it has a limit but no cursor.
    .filter((route) => route.path !== '/api/v1/tests/:id/trend')
    .filter((route) => ((route.hooks as { response?: Record<string, { type?: string }> }).response?.[200]?.type ?? '') === 'array')
    .map((route) => ({ path: route.path, query: (route.hooks as { query?: { properties?: object } }).query }));
}

async function json<T>(response: Response): Promise<T> {
  expect(response.headers.get('content-type') ?? '').toContain('application/json');
  return (await response.json()) as T;
}

beforeAll(async () => {
  // Webhooks may target the loopback address here (a port nobody listens on: deliveries fail, which is fine).
  ts = await startTestService({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  owner = await ts.createUser('pager');
  // At least three rows in every list of the owner's workspace.
  const test = await json<{ id: string }>(
    await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name: 'paged', tool: 'custom', script: 'echo hi' } }),
  );
  for (let i = 0; i < 3; i++) {
    await ts.request('/api/v1/machines', {
      method: 'POST',
      token: owner,
      json: { name: `m${i}`, hostname: `paged-${i}.example.test`, ip_address: `10.0.0.${i + 1}` },
    });
    await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name: `t${i}`, tool: 'k6', script: 'export default function () {}' } });
    await ts.request('/api/v1/configs', { method: 'POST', token: owner, json: { name: `c${i}`, vus: 1, duration: '1s' } });
    await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: `k${i}` } });
    expect((await ts.request('/api/v1/tasks', { method: 'POST', token: owner, json: { testId: test.id } })).status).toBe(202);
    expect((await ts.request('/api/v1/schedules', { method: 'POST', token: owner, json: { test_id: test.id, cron: `${i} 0 1 1 *` } })).status).toBe(201);
  }
  // Members are written straight to the database: this suite is about paging, not about how people join.
  const workspace = await json<{ id: string }>(await ts.request('/api/v1/workspace', { token: owner }));
  const em = ts.service.database.fork();
  for (let i = 0; i < 3; i++) {
    const token = await ts.createUser(`paged-member-${i}`);
    const me = await json<{ sub: string }>(await ts.request('/api/v1/auth/me', { token }));
    const profile = await em.findOneOrFail(UserProfile, { subject: me.sub });
    em.create(Membership, { id: crypto.randomUUID(), workspaceId: workspace.id, userId: profile.id, role: 'viewer', createdAt: new Date(Date.now() + i) });
  }
  await em.flush();
  // Three invitations out of the owner's workspace (pending) and three into it from other workspaces.
  for (let i = 0; i < 3; i++) {
    const invitee = await ts.createUser(`paged-invitee-${i}`);
    await ts.request('/api/v1/auth/me', { token: invitee });
    expect((await ts.request('/api/v1/members', { method: 'POST', token: owner, json: { user: `paged-invitee-${i}`, role: 'viewer' } })).status).toBe(201);
    const inviter = await ts.createUser(`paged-inviter-${i}`);
    await ts.request('/api/v1/auth/me', { token: inviter });
    expect((await ts.request('/api/v1/members', { method: 'POST', token: inviter, json: { user: 'pager', role: 'viewer' } })).status).toBe(201);
  }
  // Three webhooks, and three deliveries (test pings) of the first.
  for (let i = 0; i < 3; i++) {
    const hook = await json<{ id: string }>(
      await ts.request('/api/v1/webhooks', { method: 'POST', token: owner, json: { url: `http://127.0.0.1:9/hook-${i}`, events: ['test.failed'] } }),
    );
    webhookId ||= hook.id;
  }
  for (let i = 0; i < 3; i++) expect((await ts.request(`/api/v1/webhooks/${webhookId}/test`, { method: 'POST', token: owner })).status).toBe(202);
  // Three environment variables, dashboards, git repositories (at a loopback port nobody serves: their syncs fail) and MCP servers.
  for (let i = 0; i < 3; i++) {
    expect((await ts.request(`/api/v1/env-vars/PAGED_${i}`, { method: 'PUT', token: owner, json: { value: `v${i}` } })).status).toBe(201);
    expect((await ts.request('/api/v1/dashboards', { method: 'POST', token: owner, json: { name: `d${i}` } })).status).toBe(201);
    expect((await ts.request('/api/v1/git-repos', { method: 'POST', token: owner, json: { url: `http://127.0.0.1:9/r${i}.git` } })).status).toBe(201);
    expect((await ts.request('/api/v1/mcp-servers', { method: 'POST', token: owner, json: { name: `m${i}`, url: 'http://127.0.0.1:9/mcp' } })).status).toBe(201);
  }
}, 120_000);
afterAll(() => ts.stop());

describe('every list route', () => {
  test('takes ?limit and ?cursor (the walk finds the lists, including api-tokens and members)', () => {
    const routes = listRoutes();
    expect(routes.map((route) => route.path).sort()).toEqual(
      [
        '/api/v1/api-tokens',
        '/api/v1/audit-log',
        '/api/v1/auth/me/invitations',
        '/api/v1/configs',
        '/api/v1/dashboards',
        '/api/v1/env-vars',
        '/api/v1/git-repos',
        '/api/v1/machines',
        '/api/v1/mcp-servers',
        '/api/v1/members',
        '/api/v1/members/invitations',
        '/api/v1/schedules',
        '/api/v1/tasks',
        '/api/v1/tests',
        '/api/v1/webhooks',
        '/api/v1/webhooks/:id/deliveries',
      ].sort(),
    );
    // Some lists also filter (GET /tasks by test, status and machine; GET /audit-log by action and actor): paging first.
    for (const route of routes) expect(Object.keys(route.query?.properties ?? {}).slice(0, 2), route.path).toEqual(['limit', 'cursor']);
  });

  test('pages one row at a time with Link and X-Next-Cursor, each row once, and the last page has neither', async () => {
    const key = (row: Record<string, string>) => row.id ?? row.user_id ?? row.key!;
    const listing = async (path: string) => (await json<Record<string, string>[]>(await ts.request(`${path}?limit=1000`, { token: owner }))).map(key);
    for (const { path: pattern } of listRoutes()) {
      const path = concrete(pattern);
      // Background jobs write while the walk runs: the git sync worker (core/services/git-repos/git-sync-worker.ts)
      // adds a `git_repo.sync_failed` audit entry whenever a sync of the unreachable repositories above fails, which on a
      // busy machine can be in the middle of the walk. So the walk is held to the rows that existed before it (each
      // exactly once, in order) and to the listing after it (no row it does not hold, in its order); a row written
      // meanwhile may or may not be met, depending on where it sorts. Every list sorts by creation, which never changes.
      const before = await listing(path);
      expect(before.length, path).toBeGreaterThanOrEqual(3);
      const seen: string[] = [];
      let next: string | null = `${path}?limit=1`;
      while (next) {
        const response = await ts.request(next, { token: owner });
        expect(response.status, next).toBe(200);
        const page = await json<Record<string, string>[]>(response);
        const cursor = response.headers.get('x-next-cursor');
        const link = response.headers.get('link');
        if (cursor) {
          expect(page, path).toHaveLength(1);
          expect(link, path).toMatch(/^<\/api\/v1\/[^>]+>; rel="next"$/);
          next = /^<([^>]+)>/.exec(link!)![1]!;
          expect(new URL(next, 'http://localhost').searchParams.get('cursor')).toBe(cursor);
        } else {
          expect(link, path).toBeNull();
          next = null;
        }
        // A cursor that led back would repeat a row (and walk forever): no row twice.
        for (const row of page.map(key)) expect({ path, row, repeated: seen.includes(row) }).toEqual({ path, row, repeated: false });
        seen.push(...page.map(key));
      }
      const after = await listing(path);
      const existed = new Set(before);
      expect(seen.filter((row) => existed.has(row)), path).toEqual(before);
      const still = new Set(seen);
      expect(seen, path).toEqual(after.filter((row) => still.has(row)));
    }
  });

  test('an empty ?limit= is the default page size; a bad limit or cursor is a 400 naming it', async () => {
    for (const { path: pattern } of listRoutes()) {
      const path = concrete(pattern);
      expect((await ts.request(`${path}?limit=&cursor=`, { token: owner })).status, path).toBe(200);
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=abc', 'limit'],
        ['cursor=bm9wZQ', 'cursor'],
      ] as const) {
        const response = await ts.request(`${path}?${query}`, { token: owner });
        expect(response.status, `${path}?${query}`).toBe(400);
        expect((await json<{ message: string }>(response)).message).toContain(field);
      }
    }
  });
});

describe('GET /tasks/{id}/otel (an object of series, paged like the lists)', () => {
  test('pages one series at a time with Link and X-Next-Cursor, each once; a bad limit or cursor is a 400 naming it', async () => {
    const [task] = await json<{ id: string }[]>(await ts.request('/api/v1/tasks?limit=1', { token: owner }));
    const metrics = [0, 1, 2].map((i) => ({
      name: `paged.${i}`,
      gauge: { dataPoints: [{ timeUnixNano: `${BigInt(Date.now()) * 1_000_000n}`, asDouble: i, attributes: [{ key: 'loadplane.task_id', value: { stringValue: task!.id } }] }] },
    }));
    const sent = await ts.request('/api/v1/otlp/v1/metrics', { method: 'POST', token: owner, json: { resourceMetrics: [{ scopeMetrics: [{ metrics }] }] } });
    expect(await sent.json()).toEqual({});
    const path = `/api/v1/tasks/${task!.id}/otel`;
    const all = (await json<{ metrics: { name: string }[] }>(await ts.request(`${path}?limit=1000`, { token: owner }))).metrics.map((m) => m.name);
    expect(all).toEqual(['paged.0', 'paged.1', 'paged.2']);
    const seen: string[] = [];
    let next: string | null = `${path}?limit=1`;
    while (next) {
      const response = await ts.request(next, { token: owner });
      expect(response.status, next).toBe(200);
      const page = await json<{ metrics: { name: string }[] }>(response);
      const cursor = response.headers.get('x-next-cursor');
      const link = response.headers.get('link');
      expect(page.metrics.length).toBeLessThanOrEqual(1);
      if (cursor) {
        expect(link).toMatch(/^<\/api\/v1\/[^>]+>; rel="next"$/);
        next = /^<([^>]+)>/.exec(link!)![1]!;
        expect(new URL(next, 'http://localhost').searchParams.get('cursor')).toBe(cursor);
      } else {
        expect(link).toBeNull();
        next = null;
      }
      seen.push(...page.metrics.map((m) => m.name));
    }
    expect(seen).toEqual(all);
    expect((await ts.request(`${path}?limit=&cursor=`, { token: owner })).status).toBe(200);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=bm9wZQ', 'cursor'],
    ] as const) {
      const response = await ts.request(`${path}?${query}`, { token: owner });
      expect(response.status, `${path}?${query}`).toBe(400);
      expect((await json<{ message: string }>(response)).message).toContain(field);
    }
  });
});

describe('the byte budget', () => {
  test('GET /tests?limit=1000 with 1 MiB scripts stops near 4 MiB and links to the rest', async () => {
    const bulky = await ts.createUser('bulky');
    const script = `// ${'x'.repeat(1024 * 1024 - 100)}\nexport default function () {}`;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await ts.request('/api/v1/tests', { method: 'POST', token: bulky, json: { name: `big ${i}`, tool: 'k6', script } });
      expect(created.status).toBe(201);
      ids.unshift(((await created.json()) as { id: string }).id);
    }
    const seen: string[] = [];
    let next: string | null = '/api/v1/tests?limit=1000';
    let pages = 0;
    while (next) {
      const response = await ts.request(next, { token: bulky });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text.length).toBeLessThanOrEqual(4 * 1024 * 1024 + 1024 * 1024);
      const page = JSON.parse(text) as { id: string }[];
      expect(page.length).toBeGreaterThan(0);
      seen.push(...page.map((row) => row.id));
      const link = response.headers.get('link');
      next = link ? /^<([^>]+)>/.exec(link)![1]! : null;
      if (next) expect(new URL(next, 'http://localhost').searchParams.get('limit')).toBe('1000');
      pages += 1;
    }
    // Six 1 MiB rows do not fit one 4 MiB page: at least two pages, every row exactly once, newest first.
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(ids);
  }, 120_000);
});
