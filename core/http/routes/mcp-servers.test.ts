import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { maxMcpServersPerWorkspace } from '../../domain/mcp-server-rules.ts';
import { sqlOf } from '../../services/sql.ts';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let owner: string;
let counter = 0;

interface Server {
  id: string;
  name: string;
  url: string;
  header_names: string[];
  created_at: string;
  updated_at: string;
  error?: string;
  message?: string;
}

const secret = 'sk-live-do-not-show-4f1c2b';

async function create(token: string, body: Record<string, unknown>) {
  const response = await ts.request('/api/v1/mcp-servers', { method: 'POST', token, json: body });
  return { response, body: (await response.json()) as Server };
}

beforeAll(async () => {
  ts = await startTestService({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost' } });
});
beforeEach(async () => {
  owner = await ts.createUser(`mcpowner${++counter}`);
});
afterAll(() => ts.stop());

describe('mcp-servers: happy paths', () => {
  test('attached, read, listed, changed and detached; header values never in an answer nor the audit log, sealed at rest', async () => {
    const { response, body } = await create(owner, {
      name: 'tickets',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Api-Key': secret, Authorization: `Bearer ${secret}` },
    });
    expect(response.status).toBe(201);
    expect(body).toMatchObject({ name: 'tickets', url: 'http://127.0.0.1:9/mcp', header_names: ['authorization', 'x-api-key'] });
    expect(body.created_at).toMatch(/Z$/);
    expect(JSON.stringify(body)).not.toContain(secret);

    const one = await ts.request(`/api/v1/mcp-servers/${body.id}`, { token: owner });
    expect(one.status).toBe(200);
    const list = await ts.request('/api/v1/mcp-servers', { token: owner });
    const listText = await list.text();
    expect((JSON.parse(listText) as Server[]).map((server) => server.id)).toEqual([body.id]);

    // Rename, move, and change the headers: one replaced, one removed, one added; the rest stays.
    const patched = await ts.request(`/api/v1/mcp-servers/${body.id}`, {
      method: 'PATCH',
      token: owner,
      json: { name: 'jira', url: 'http://localhost:9/v2/mcp', headers: { authorization: null, 'x-api-key': `${secret}-2`, 'x-team': 'blue' } },
    });
    expect(patched.status).toBe(200);
    const patchedText = await patched.text();
    expect(JSON.parse(patchedText)).toMatchObject({ name: 'jira', url: 'http://localhost:9/v2/mcp', header_names: ['x-api-key', 'x-team'] });

    // At rest: names in clear, values only sealed.
    const [row] = await sqlOf(ts.service.database).all<{ headers_box: string; header_names: string[] }>(
      'select headers_box, header_names from mcp_servers where id = ?',
      [body.id],
    );
    expect(row!.headers_box).toStartWith('v1.');
    expect(row!.headers_box).not.toContain(secret);
    expect(row!.header_names).toEqual(['x-api-key', 'x-team']);

    const deleted = await ts.request(`/api/v1/mcp-servers/${body.id}`, { method: 'DELETE', token: owner });
    expect(deleted.status).toBe(204);
    expect((await ts.request(`/api/v1/mcp-servers/${body.id}`, { token: owner })).status).toBe(404);

    const auditText = await (await ts.request('/api/v1/audit-log', { token: owner })).text();
    const audit = JSON.parse(auditText) as { action: string; target: { id: string }; details: Record<string, unknown> }[];
    expect(audit.filter((entry) => entry.target.id === body.id).map((entry) => entry.action)).toEqual([
      'mcp_server.deleted',
      'mcp_server.updated',
      'mcp_server.created',
    ]);
    expect(audit.find((entry) => entry.action === 'mcp_server.created')!.details).toEqual({
      url: 'http://127.0.0.1:9/mcp',
      header_names: ['authorization', 'x-api-key'],
    });
    for (const text of [auditText, listText, patchedText, await one.text()]) expect(text).not.toContain(secret);
  });

  test('lists are paged newest first with Link and X-Next-Cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(owner, { name: `s${i}`, url: `http://127.0.0.1:9/m${i}` })).body.id);
    const first = await ts.request('/api/v1/mcp-servers?limit=2', { token: owner });
    expect(((await first.json()) as Server[]).map((s) => s.id)).toEqual([ids[2]!, ids[1]!]);
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await ts.request(`/api/v1/mcp-servers?limit=2&cursor=${first.headers.get('x-next-cursor')}`, { token: owner });
    expect(((await second.json()) as Server[]).map((s) => s.id)).toEqual([ids[0]!]);
  });

  test('with no servers, the tool list is empty', async () => {
    const response = await ts.request('/api/v1/mcp-servers/tools', { token: owner });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ tools: [], skipped: [] });
  });
});

describe('mcp-servers: errors', () => {
  test('names must be slugs without "__", unique in the workspace (409, at creation and rename)', async () => {
    for (const name of ['Tickets', '1abc', 'a b', 'x'.repeat(33), 'a__b', '', 'ünï']) {
      const { response, body } = await create(owner, { name, url: 'http://127.0.0.1:9/mcp' });
      expect(`${JSON.stringify(name)} ${response.status}`).toBe(`${JSON.stringify(name)} 400`);
      expect(body.error).toBe('bad_request');
    }
    const first = await create(owner, { name: 'docs', url: 'http://127.0.0.1:9/mcp' });
    expect(first.response.status).toBe(201);
    const again = await create(owner, { name: 'docs', url: 'http://127.0.0.1:9/other' });
    expect(again.response.status).toBe(409);
    expect(again.body.message).toContain('docs');
    const second = await create(owner, { name: 'wiki', url: 'http://127.0.0.1:9/mcp' });
    const rename = await ts.request(`/api/v1/mcp-servers/${second.body.id}`, { method: 'PATCH', token: owner, json: { name: 'docs' } });
    expect(rename.status).toBe(409);
    // Another workspace may use the same name.
    const stranger = await ts.createUser(`mcpnamesake${counter}`);
    expect((await create(stranger, { name: 'docs', url: 'http://127.0.0.1:9/mcp' })).response.status).toBe(201);
  });

  test('refused URLs are a 400 naming the reason, at creation and at update', async () => {
    const cases: Array<[string, string]> = [
      ['http://10.0.0.5/mcp', 'private (10.0.0.0/8)'],
      ['http://169.254.169.254/latest', 'metadata'],
      ['http://127.0.0.2/mcp', 'loopback'],
      ['ftp://127.0.0.1/', 'http or https'],
      ['http://user:pw@127.0.0.1/mcp', 'headers'],
      ['not a url', 'not a valid absolute URL'],
    ];
    for (const [url, reason] of cases) {
      const { response, body } = await create(owner, { name: 'refused', url });
      expect(`${url} ${response.status}`).toBe(`${url} 400`);
      expect(body.message).toContain(reason);
    }
    const { body } = await create(owner, { name: 'ok', url: 'http://127.0.0.1:9/mcp' });
    const patched = await ts.request(`/api/v1/mcp-servers/${body.id}`, { method: 'PATCH', token: owner, json: { url: 'http://192.168.1.1/' } });
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as { message: string }).message).toContain('192.168.0.0/16');
  });

  test('headers: HTTP field names, not the transport\'s own, printable values; unknown fields refused', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ 'content-type': 'text/plain' }, 'set by the MCP transport'],
      [{ 'Mcp-Session-Id': 'x' }, 'set by the MCP transport'],
      [{ 'bad name': 'x' }, 'not a HTTP field name'],
      [{ 'x-a': 'line\r\nx-b: injected' }, 'cannot carry'],
      [{ 'x-a': 'é' }, 'cannot carry'],
      [{ 'x-a': '' }, ''],
      [{ 'x-a': 'a', 'X-A': 'b' }, 'twice'],
      [{ 'x-a': 1 }, ''],
      [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v'])), ''],
    ];
    for (const [headers, reason] of bad) {
      const { response, body } = await create(owner, { name: 'hdr', url: 'http://127.0.0.1:9/mcp', headers });
      expect(`${JSON.stringify(headers).slice(0, 60)} ${response.status}`).toBe(`${JSON.stringify(headers).slice(0, 60)} 400`);
      expect(body.message).toContain(reason);
    }
    expect((await create(owner, { name: 'hdr', url: 'http://127.0.0.1:9/mcp', secret: 'x' })).response.status).toBe(400);
    expect((await create(owner, { url: 'http://127.0.0.1:9/mcp' })).response.status).toBe(400);
  });

  test(`a workspace attaches at most ${maxMcpServersPerWorkspace} servers`, async () => {
    for (let i = 0; i < maxMcpServersPerWorkspace; i++) {
      expect((await create(owner, { name: `m${i}`, url: 'http://127.0.0.1:9/mcp' })).response.status).toBe(201);
    }
    const over = await create(owner, { name: 'one-more', url: 'http://127.0.0.1:9/mcp' });
    expect(over.response.status).toBe(400);
    expect(over.body.message).toContain(`at most ${maxMcpServersPerWorkspace}`);
  });

  test('concurrent creates stop exactly at the limit, and one name wins a race (409 for the other, never a 500)', async () => {
    const statuses = await Promise.all(
      Array.from({ length: maxMcpServersPerWorkspace + 3 }, (_, i) => create(owner, { name: `race${i}`, url: 'http://127.0.0.1:9/mcp' }).then((r) => r.response.status)),
    );
    expect(statuses.filter((status) => status === 201).length).toBe(maxMcpServersPerWorkspace);
    expect(statuses.filter((status) => status === 400).length).toBe(3);

    const other = await ts.createUser(`mcprace${counter}`);
    const same = await Promise.all([0, 1, 2].map(() => create(other, { name: 'same', url: 'http://127.0.0.1:9/mcp' }).then((r) => r.response.status)));
    expect(same.sort()).toEqual([201, 409, 409]);
  });

  test('calling a server that is not there is a 404; a bad body a 400', async () => {
    const missing = await ts.request(`/api/v1/mcp-servers/${crypto.randomUUID()}/call`, { method: 'POST', token: owner, json: { tool: 'x' } });
    expect(missing.status).toBe(404);
    const { body } = await create(owner, { name: 'callee', url: 'http://127.0.0.1:9/mcp' });
    for (const json of [{}, { tool: '' }, { tool: 'x', arguments: [] }, { tool: 'x', extra: 1 }]) {
      const response = await ts.request(`/api/v1/mcp-servers/${body.id}/call`, { method: 'POST', token: owner, json });
      expect(`${JSON.stringify(json)} ${response.status}`).toBe(`${JSON.stringify(json)} 400`);
    }
  });
});

describe('mcp-servers: security', () => {
  test('another workspace sees 404 for every route of a foreign server, and none of its tools', async () => {
    const { body } = await create(owner, { name: 'private', url: 'http://127.0.0.1:9/mcp', headers: { 'x-api-key': secret } });
    const other = await ts.createUser(`mcpstranger${counter}`);
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/mcp-servers/${body.id}`],
      ['PATCH', `/api/v1/mcp-servers/${body.id}`, { name: 'mine' }],
      ['DELETE', `/api/v1/mcp-servers/${body.id}`],
      ['POST', `/api/v1/mcp-servers/${body.id}/call`, { tool: 'x' }],
    ];
    for (const [method, path, json] of paths) {
      const response = await ts.request(path, { method, token: other, ...(json ? { json } : {}) });
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 404`);
    }
    expect(await (await ts.request('/api/v1/mcp-servers', { token: other })).json()).toEqual([]);
    expect(await (await ts.request('/api/v1/mcp-servers/tools', { token: other })).json()).toEqual({ tools: [], skipped: [] });
    expect((await ts.request('/api/v1/mcp-servers/not-a-uuid', { token: owner })).status).toBe(404);
  });

  test('manage_mcp_servers is needed: a member gets 403 on every route, an admin may; scoped API tokens never', async () => {
    const { body } = await create(owner, { name: 'guarded', url: 'http://127.0.0.1:9/mcp' });
    const workspace = (await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string };
    const inWorkspace = { 'x-workspace-id': workspace.id };
    const memberName = `mcpmember${counter}`;
    const memberJwt = await ts.createUser(memberName);
    await ts.request('/api/v1/auth/me', { token: memberJwt }); // the first sign-in makes them known
    expect((await inviteAndAccept(ts, owner, memberName, 'member', memberJwt)).invited.status).toBe(201);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/mcp-servers'],
      ['POST', '/api/v1/mcp-servers', { name: 'sneaky', url: 'http://127.0.0.1:9/mcp' }],
      ['GET', `/api/v1/mcp-servers/${body.id}`],
      ['PATCH', `/api/v1/mcp-servers/${body.id}`, { name: 'renamed' }],
      ['DELETE', `/api/v1/mcp-servers/${body.id}`],
      ['GET', '/api/v1/mcp-servers/tools'],
      ['POST', `/api/v1/mcp-servers/${body.id}/call`, { tool: 'x' }],
    ];
    for (const [method, path, json] of routes) {
      const response = await ts.request(path, { method, token: memberJwt, headers: inWorkspace, ...(json ? { json } : {}) });
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 403`);
      expect(((await response.json()) as { message: string }).message).toContain('manage_mcp_servers');
    }

    const adminName = `mcpadmin${counter}`;
    const adminJwt = await ts.createUser(adminName);
    await ts.request('/api/v1/auth/me', { token: adminJwt });
    expect((await inviteAndAccept(ts, owner, adminName, 'admin', adminJwt)).invited.status).toBe(201);
    const asAdmin = await ts.request('/api/v1/mcp-servers', { token: adminJwt, headers: inWorkspace });
    expect(((await asAdmin.json()) as Server[]).map((server) => server.name)).toEqual(['guarded']);

    const scoped = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'ro', scopes: ['tests:read'] } });
    const { token } = (await scoped.json()) as { token: string };
    expect((await ts.request('/api/v1/mcp-servers', { token })).status).toBe(403);
    expect((await ts.request('/api/v1/mcp-servers/tools', { token })).status).toBe(403);
  });
});
