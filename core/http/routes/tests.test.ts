import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { minimalScripts } from '../../../tests/fixtures/minimal-scripts.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let alice: string;
let bob: string;

const k6Script = "import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:9/'); }\n";

async function createTest(token: string, body: Record<string, unknown> = {}) {
  const response = await ts.request('/api/v1/tests', {
    method: 'POST',
    token,
    json: { name: 'Checkout', tool: 'k6', script: k6Script, ...body },
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  ts = await startTestService();
  alice = await ts.createUser('alice');
  bob = await ts.createUser('bob');
});
afterAll(() => ts.stop());

describe('tests: happy paths', () => {
  test('create with default status draft, then list', async () => {
    const { response, body } = await createTest(alice);
    expect(response.status).toBe(201);
    expect(body).toMatchObject({ name: 'Checkout', tool: 'k6', status: 'draft', script: k6Script });
    expect(body.created_at).toMatch(/Z$/);
    const list = (await (await ts.request('/api/v1/tests', { token: alice })).json()) as { id: string }[];
    expect(list[0]!.id).toBe(body.id as string);
  });

  test('the list pages newest first with limit and cursor', async () => {
    const token = await ts.createUser('pager');
    const names: string[] = [];
    for (let i = 0; i < 7; i++) {
      names.push(`p${i}`);
      await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `p${i}`, tool: 'custom', script: 'x' } });
    }
    const seen: string[] = [];
    let next: string | null = '/api/v1/tests?limit=3';
    while (next) {
      const response = await ts.request(next, { token });
      seen.push(...((await response.json()) as { name: string }[]).map((t) => t.name));
      next = /<([^>]+)>/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual([...names].reverse());
  });

  test('every tool of the enum and an explicit status are accepted', async () => {
    for (const tool of ['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom']) {
      const { response, body } = await createTest(alice, { tool, status: 'active', script: minimalScripts[tool] });
      expect(response.status).toBe(201);
      expect(body).toMatchObject({ tool, status: 'active' });
    }
  });

  test('patch changes any of name, script, status and answers the test', async () => {
    const { body: created } = await createTest(alice);
    const patched = await ts.request(`/api/v1/tests/${created.id}`, {
      method: 'PATCH',
      token: alice,
      json: { status: 'archived', name: 'Checkout v2' },
    });
    expect(patched.status).toBe(200);
    const body = (await patched.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: created.id, name: 'Checkout v2', status: 'archived', script: k6Script, tool: 'k6' });
    expect(Date.parse(body.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(created.updated_at as string));
    const script = await ts.request(`/api/v1/tests/${created.id}`, { method: 'PATCH', token: alice, json: { script: 'export default function () {}' } });
    expect(((await script.json()) as { script: string }).script).toBe('export default function () {}');
  });

  test('delete answers 204 and the test leaves the list', async () => {
    const { body: created } = await createTest(alice);
    const deleted = await ts.request(`/api/v1/tests/${created.id}`, { method: 'DELETE', token: alice });
    expect(deleted.status).toBe(204);
    const list = (await (await ts.request('/api/v1/tests', { token: alice })).json()) as { id: string }[];
    expect(list.map((t) => t.id)).not.toContain(created.id as string);
    const again = await ts.request(`/api/v1/tests/${created.id}`, { method: 'DELETE', token: alice });
    expect(again.status).toBe(404);
    const patch = await ts.request(`/api/v1/tests/${created.id}`, { method: 'PATCH', token: alice, json: { name: 'x' } });
    expect(patch.status).toBe(404);
  });
});

describe('tests: errors', () => {
  test.each([
    [{ name: undefined }, 'name'],
    [{ tool: undefined }, 'tool'],
    [{ script: undefined }, 'script'],
    [{ tool: 'wrk' }, 'tool'],
    [{ status: 'deleted' }, 'status'],
    [{ script: '' }, 'script'],
    [{ script: '   \n' }, 'script must not be empty'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ id: 'client-chosen' }, 'id'],
  ])('bad create body %p is a 400 naming the field', async (overrides, mentions) => {
    const { response, body } = await createTest(alice, overrides);
    expect(response.status).toBe(400);
    expect(body.error).toBe('bad_request');
    expect(body.message).toContain(mentions);
  });

  test('a script over 1 MiB is refused with 400, a body over the limit with 413', async () => {
    const big = await createTest(alice, { script: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.response.status).toBe(400);
    expect(big.body.message).toContain('limit is 1048576 bytes');
    const huge = await createTest(alice, { script: 'x'.repeat(3 * 1024 * 1024) });
    expect(huge.response.status).toBe(413);
    expect(huge.body.error).toBe('payload_too_large');
  });

  test("a script its tool's plugin refuses is a 400 when saved, on create and on patch, and nothing changes", async () => {
    const bad = await createTest(alice, { script: 'console.log("no default export")' });
    expect(bad.response.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'bad_request' });
    expect(bad.body.message).toContain('the script is not a valid k6 test: a k6 script must export a default function');
    const { body: created } = await createTest(alice);
    const patch = await ts.request(`/api/v1/tests/${created.id}`, { method: 'PATCH', token: alice, json: { script: 'let x = 1;' } });
    expect(patch.status).toBe(400);
    const listed = (await (await ts.request('/api/v1/tests', { token: alice })).json()) as { id: string; script: string }[];
    expect(listed.find((t) => t.id === created.id)!.script).toBe(k6Script);
  });

  test('patch: empty body, the tool, an unknown field are 400', async () => {
    const { body: created } = await createTest(alice);
    for (const [json, mentions] of [
      [{}, 'nothing to change'],
      [{ tool: 'locust' }, 'tool'],
      [{ status: 'gone' }, 'status'],
    ] as const) {
      const response = await ts.request(`/api/v1/tests/${created.id}`, { method: 'PATCH', token: alice, json });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(mentions);
    }
  });
});

describe('tests: security', () => {
  test('no token and a bad token are 401 on every route', async () => {
    const id = crypto.randomUUID();
    for (const headers of [{}, { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' }]) {
      for (const [method, path] of [
        ['GET', '/api/v1/tests'],
        ['POST', '/api/v1/tests'],
        ['PATCH', `/api/v1/tests/${id}`],
        ['DELETE', `/api/v1/tests/${id}`],
      ] as const) {
        const response = await ts.request(path, { method, headers: headers as Record<string, string>, json: method === 'GET' ? undefined : { name: 'x' } });
        expect(response.status).toBe(401);
      }
    }
  });

  test("another workspace's test cannot be listed, patched or deleted", async () => {
    const { body: created } = await createTest(alice, { name: 'secret plan' });
    const bobsList = (await (await ts.request('/api/v1/tests', { token: bob })).json()) as { id: string }[];
    expect(bobsList.map((t) => t.id)).not.toContain(created.id as string);
    const patch = await ts.request(`/api/v1/tests/${created.id}`, { method: 'PATCH', token: bob, json: { name: 'pwned' } });
    expect(patch.status).toBe(404);
    const del = await ts.request(`/api/v1/tests/${created.id}`, { method: 'DELETE', token: bob });
    expect(del.status).toBe(404);
    const list = (await (await ts.request('/api/v1/tests', { token: alice })).json()) as { id: string; name: string }[];
    expect(list.find((t) => t.id === created.id)?.name).toBe('secret plan');
  });
});
