import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let alice: string;
let bob: string;

const machine = (overrides: Record<string, unknown> = {}) => ({
  name: 'Generator 1',
  hostname: 'gen-1.example.com',
  ip_address: '10.0.0.11',
  os: 'linux',
  arch: 'x86_64',
  cpu_cores: 8,
  memory_gb: 16,
  ...overrides,
});

beforeAll(async () => {
  ts = await startTestService();
  alice = await ts.createUser('alice');
  bob = await ts.createUser('bob');
});
afterAll(() => ts.stop());

describe('machines: happy paths', () => {
  test('register, list and delete', async () => {
    const created = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine() });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    // Registered by hand: no agent has connected, so no agent version and no tools yet; no region given, no calibration.
    expect(body).toMatchObject({ ...machine(), status: 'offline', agent_version: null, tools: [], region: null, benchmark_capacity: null });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const list = await ts.request('/api/v1/machines', { token: alice });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { id: string }[]).map((m) => m.id)).toContain(body.id as string);

    const deleted = await ts.request(`/api/v1/machines/${body.id}`, { method: 'DELETE', token: alice });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const after = (await (await ts.request('/api/v1/machines', { token: alice })).json()) as { id: string }[];
    expect(after.map((m) => m.id)).not.toContain(body.id as string);
  });

  test('optional fields default; os/arch aliases are normalised', async () => {
    const response = await ts.request('/api/v1/machines', {
      method: 'POST',
      token: alice,
      json: { name: 'mini', hostname: 'MINI-Host', ip_address: '::1', arch: 'aarch64', os: 'macos' },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ hostname: 'mini-host', os: 'darwin', arch: 'arm64', cpu_cores: 0, memory_gb: 0 });
  });

  test('GET /machines/:id shows one machine as the list does; a region given at registration is kept, trimmed', async () => {
    const created = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine({ hostname: 'regional', region: ' eu-west-1 ' }) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; region: string | null };
    expect(body.region).toBe('eu-west-1');
    const one = await ts.request(`/api/v1/machines/${body.id}`, { token: alice });
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(body);
    const listed = ((await (await ts.request('/api/v1/machines', { token: alice })).json()) as { id: string }[]).find((m) => m.id === body.id);
    expect(listed).toEqual(body);
    // Empty or null: no region.
    for (const region of ['', '  ', null]) {
      const none = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine({ hostname: `no-region-${String(region).length}`, region }) });
      expect(((await none.json()) as { region: string | null }).region).toBeNull();
    }
  });

  test('lists page with limit and cursor, newest first', async () => {
    const token = await ts.createUser('pager');
    for (let i = 0; i < 5; i++) {
      await ts.request('/api/v1/machines', { method: 'POST', token, json: machine({ hostname: `pager-${i}` }) });
    }
    const first = await ts.request('/api/v1/machines?limit=2&_=cache-buster', { token });
    const firstPage = (await first.json()) as { hostname: string }[];
    expect(firstPage.map((m) => m.hostname)).toEqual(['pager-4', 'pager-3']);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await ts.request(`/api/v1/machines?limit=2&cursor=${cursor}`, { token });
    expect(((await second.json()) as { hostname: string }[]).map((m) => m.hostname)).toEqual(['pager-2', 'pager-1']);
    const nextLink = /<([^>]+)>/.exec(second.headers.get('link') ?? '')![1]!;
    const third = await ts.request(nextLink, { token });
    expect(((await third.json()) as { hostname: string }[]).map((m) => m.hostname)).toEqual(['pager-0']);
    expect(third.headers.get('x-next-cursor')).toBeNull();
  });
});

describe('machines: errors', () => {
  test('duplicate hostname in one workspace is 409 (case-insensitive)', async () => {
    const token = await ts.createUser('dup');
    expect((await ts.request('/api/v1/machines', { method: 'POST', token, json: machine({ hostname: 'same' }) })).status).toBe(201);
    const again = await ts.request('/api/v1/machines', { method: 'POST', token, json: machine({ hostname: 'SAME' }) });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: 'conflict',
      message: 'a machine with hostname "same" is already registered in this workspace',
    });
  });

  test('two workspaces may use one hostname', async () => {
    const a = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine({ hostname: 'shared-host' }) });
    const b = await ts.request('/api/v1/machines', { method: 'POST', token: bob, json: machine({ hostname: 'shared-host' }) });
    expect([a.status, b.status]).toEqual([201, 201]);
  });

  test.each([
    [{ name: undefined }, 'name'],
    [{ hostname: undefined }, 'hostname'],
    [{ hostname: 'bad_host!' }, 'hostname must be a valid host name'],
    [{ ip_address: '999.1.1.1' }, 'ip_address must be an IPv4 or IPv6 address'],
    [{ os: 'plan9' }, 'os must be one of'],
    [{ arch: 'sparc' }, 'arch must be one of'],
    [{ cpu_cores: 'eight' }, 'cpu_cores'],
    [{ cpu_cores: 2.5 }, 'cpu_cores'],
    [{ memory_gb: -1 }, 'memory_gb'],
    [{ surprise: true }, 'surprise'],
    [{ name: '   ' }, 'name must not be blank'],
    [{ region: 'eu west' }, 'region must be 1 to 64 letters'],
    [{ region: '-eu' }, 'region must be 1 to 64 letters'],
    [{ region: 'r'.repeat(65) }, 'region must be 1 to 64 letters'],
    [{ region: 7 }, 'region'],
    [{ benchmark_capacity: 1000 }, 'benchmark_capacity'],
  ])('bad input %p is a 400 naming the field', async (overrides, mentions) => {
    const response = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine(overrides) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('bad_request');
    expect(body.message).toContain(mentions);
  });

  test('malformed JSON and a non-object body are 400', async () => {
    const malformed = await ts.request('/api/v1/machines', {
      method: 'POST',
      token: alice,
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toContain('malformed JSON');
    const array = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: [1, 2] });
    expect(array.status).toBe(400);
  });

  test('reading or deleting an unknown or malformed id is 404', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      for (const method of ['GET', 'DELETE']) {
        const response = await ts.request(`/api/v1/machines/${id}`, { method, token: alice });
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: 'not_found', message: 'machine not found' });
      }
    }
  });
});

describe('machines: security', () => {
  test('no token, a bad token, a malformed header: 401 with the error body', async () => {
    for (const headers of [{}, { authorization: 'Bearer not.a.jwt' }, { authorization: 'Basic YWxpY2U6eA==' }]) {
      for (const [method, path] of [
        ['GET', '/api/v1/machines'],
        ['POST', '/api/v1/machines'],
        ['GET', `/api/v1/machines/${crypto.randomUUID()}`],
        ['DELETE', `/api/v1/machines/${crypto.randomUUID()}`],
      ] as const) {
        const response = await ts.request(path, { method, headers: headers as Record<string, string>, json: method === 'POST' ? machine() : undefined });
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: string }).error).toBe('unauthorized');
      }
    }
  });

  test("another workspace's machine is invisible and answers 404", async () => {
    const created = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: machine({ hostname: 'alice-only' }) });
    const { id } = (await created.json()) as { id: string };
    const bobsList = (await (await ts.request('/api/v1/machines', { token: bob })).json()) as { id: string }[];
    expect(bobsList.map((m) => m.id)).not.toContain(id);
    const peeked = await ts.request(`/api/v1/machines/${id}`, { token: bob });
    expect(peeked.status).toBe(404);
    expect(await peeked.json()).toEqual({ error: 'not_found', message: 'machine not found' });
    const stolen = await ts.request(`/api/v1/machines/${id}`, { method: 'DELETE', token: bob });
    expect(stolen.status).toBe(404);
    // Still there for its owner.
    const alicesList = (await (await ts.request('/api/v1/machines', { token: alice })).json()) as { id: string }[];
    expect(alicesList.map((m) => m.id)).toContain(id);
  });
});
