/** /dashboards through the REST API: create, read, list, replace, delete; panel shapes; scopes and roles; tenants; audit. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { maxPanels } from '../../domain/dashboard-rules.ts';

let ts: TestService;
let counter = 0;
const fresh = () => ts.createUser(`dashuser${++counter}`);

const panel = (title: string, query: unknown = 'metric=http_req_duration&step=10s', chart = 'line') => ({ title, query, chart });
const create = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  ts.request('/api/v1/dashboards', { method: 'POST', token, json: body, headers });
const errorOf = async (response: Response) => (await response.json()) as { error: string; message: string };

beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('dashboards: happy path', () => {
  test('created, read, listed newest first, replaced whole, deleted; every change is audited', async () => {
    const owner = await fresh();
    const objectQuery = { metric: 'http_reqs', start: '-1h', step: '30s', labels: { scenario: '~checkout.*' } };
    const created = await create(owner, { name: ' Latency ', panels: [panel('p95', 'metric=latency_p95'), panel('Requests', objectQuery, 'bar')] });
    expect(created.status).toBe(201);
    const dashboard = (await created.json()) as { id: string; name: string; panels: unknown[] };
    expect(dashboard).toMatchObject({
      name: 'Latency',
      panels: [
        { title: 'p95', query: 'metric=latency_p95', chart: 'line' },
        { title: 'Requests', query: objectQuery, chart: 'bar' },
      ],
    });
    const empty = (await (await create(owner, { name: 'Empty' })).json()) as { id: string; panels: unknown[] };
    expect(empty.panels).toEqual([]);

    const one = await ts.request(`/api/v1/dashboards/${dashboard.id}`, { token: owner });
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(dashboard);
    const listed = (await (await ts.request('/api/v1/dashboards', { token: owner })).json()) as { id: string }[];
    expect(listed.map((d) => d.id)).toEqual([empty.id, dashboard.id]);

    const replaced = await ts.request(`/api/v1/dashboards/${dashboard.id}`, {
      method: 'PUT',
      token: owner,
      json: { name: 'Latency v2', panels: [panel('errors', 'metric=errors', 'stat')] },
    });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ id: dashboard.id, name: 'Latency v2', panels: [{ title: 'errors', query: 'metric=errors', chart: 'stat' }] });

    expect((await ts.request(`/api/v1/dashboards/${dashboard.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await ts.request(`/api/v1/dashboards/${dashboard.id}`, { token: owner })).status).toBe(404);
    const audit = (await (await ts.request('/api/v1/audit-log', { token: owner })).json()) as { action: string; target: { id: string } }[];
    expect(audit.filter((e) => e.action.startsWith('dashboard.')).map((e) => e.action)).toEqual([
      'dashboard.deleted',
      'dashboard.updated',
      'dashboard.created',
      'dashboard.created',
    ]);
  });
});

describe('dashboards: bad input', () => {
  test('blank names, unknown charts, blank or non-object queries, too many panels, unknown fields: clear 400s', async () => {
    const owner = await fresh();
    const cases: [unknown, string][] = [
      [{ name: '   ', panels: [] }, 'name'],
      [{ panels: [] }, 'name'],
      [{ name: 'x', panels: [panel('t', 'metric=a', 'pie')] }, 'chart'],
      [{ name: 'x', panels: [panel('t', '   ')] }, 'query'],
      [{ name: 'x', panels: [panel('t', ['metric'])] }, 'query'],
      [{ name: 'x', panels: [panel('t', {})] }, 'query'],
      [{ name: 'x', panels: [panel('t', 42)] }, 'query'],
      [{ name: 'x', panels: [panel('  ', 'metric=a')] }, 'title'],
      [{ name: 'x', panels: [{ title: 't', query: 'metric=a' }] }, 'chart'],
      [{ name: 'x', panels: [{ ...panel('t'), colour: 'red' }] }, 'colour'],
      [{ name: 'x', panels: Array.from({ length: maxPanels + 1 }, (_, i) => panel(`p${i}`)) }, 'panels'],
      [{ name: 'x', panels: [panel('t', `metric=${'a'.repeat(9000)}`)] }, 'query'],
      [{ name: 'x', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await create(owner, body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      const error = await errorOf(response);
      expect(error.error).toBe('bad_request');
      expect(error.message, JSON.stringify(body).slice(0, 200)).toContain(field);
    }
    expect(await (await ts.request('/api/v1/dashboards', { token: owner })).json()).toEqual([]);
    const missing = await ts.request(`/api/v1/dashboards/${crypto.randomUUID()}`, { method: 'PUT', token: owner, json: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect((await ts.request('/api/v1/dashboards/not-a-uuid', { token: owner })).status).toBe(404);
  });
});

describe('dashboards: who may', () => {
  test('metrics:read reads; writing needs metrics:read and tests:write; a viewer reads only; another workspace sees nothing', async () => {
    const { token: full, jwt } = await ts.apiToken(`dashowner${++counter}`);
    const scoped = async (scopes: string[]) =>
      ((await (await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: scopes.join('+'), scopes } })).json()) as { token: string }).token;
    const reader = await scoped(['metrics:read']);
    const writer = await scoped(['metrics:read', 'tests:write']);
    const testsOnly = await scoped(['tests:write', 'tests:read']);
    const made = (await (await create(full, { name: 'Shared', panels: [panel('p')] })).json()) as { id: string };

    expect((await ts.request('/api/v1/dashboards', { token: reader })).status).toBe(200);
    expect((await ts.request(`/api/v1/dashboards/${made.id}`, { token: reader })).status).toBe(200);
    expect((await create(reader, { name: 'no' })).status).toBe(403);
    expect((await ts.request(`/api/v1/dashboards/${made.id}`, { method: 'DELETE', token: reader })).status).toBe(403);
    expect((await ts.request('/api/v1/dashboards', { token: testsOnly })).status).toBe(403);
    expect((await create(testsOnly, { name: 'no' })).status).toBe(403);
    expect((await create(writer, { name: 'yes' })).status).toBe(201);

    const viewer = await fresh();
    // Invitations find people who have signed in once.
    await ts.request('/api/v1/auth/me', { token: viewer });
    await inviteAndAccept(ts, jwt, `dashuser${counter}`, 'viewer', viewer);
    const workspace = (await (await ts.request('/api/v1/workspace', { token: jwt })).json()) as { id: string };
    const inA = { 'x-workspace-id': workspace.id };
    expect((await ts.request(`/api/v1/dashboards/${made.id}`, { token: viewer, headers: inA })).status).toBe(200);
    expect((await create(viewer, { name: 'no' }, inA)).status).toBe(403);

    const stranger = await fresh();
    expect(await (await ts.request('/api/v1/dashboards', { token: stranger })).json()).toEqual([]);
    for (const [method, json] of [['GET', undefined], ['PUT', { name: 'taken' }], ['DELETE', undefined]] as const) {
      const response = await ts.request(`/api/v1/dashboards/${made.id}`, { method, token: stranger, json });
      expect(response.status, method).toBe(404);
    }
    expect((await ts.request(`/api/v1/dashboards/${made.id}`, { token: full })).status).toBe(200);
  });
});
