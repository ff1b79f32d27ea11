/**
 * Remote MCP servers through the REST proxy against real MCP servers (the SDK's, on loopback, started here): their tools
 * listed prefixed, a call's result passed on with the admin's header reaching the server and nowhere else, big results
 * cut, failing servers skipped in the list and answered 502 on a call (stopped, hanging, refusing, redirecting
 * elsewhere, or at an address the guard refuses by now); members refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { defaultRemoteMcpLimits } from '../../core/domain/mcp-server-rules.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { type RemoteMcpServer, startRemoteMcpServer } from '../helpers/remote-mcp-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

interface ToolList {
  tools: { server: string; server_id: string; name: string; prefixed_name: string; description: string; input_schema: Record<string, unknown>; output_schema?: unknown; annotations?: unknown }[];
  skipped: { server: string; server_id: string; reason: string }[];
}
interface CallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
  truncated: boolean;
  error?: string;
  message?: string;
}

const apiKey = 'remote-key-7d1e9a';
let ts: TestService;
let remote: RemoteMcpServer;
let admin: string;
let counter = 0;

async function attach(token: string, body: Record<string, unknown>): Promise<string> {
  const response = await ts.request('/api/v1/mcp-servers', { method: 'POST', token, json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}
const tools = async (token: string) => {
  const response = await ts.request('/api/v1/mcp-servers/tools', { token });
  expect(response.status).toBe(200);
  return (await response.json()) as ToolList;
};
const call = async (token: string, id: string, tool: string, args?: Record<string, unknown>) => {
  const response = await ts.request(`/api/v1/mcp-servers/${id}/call`, { method: 'POST', token, json: { tool, ...(args ? { arguments: args } : {}) } });
  return { status: response.status, body: (await response.json()) as CallResult };
};
/** A fresh user: owner (so admin) of a workspace of their own, which has no servers yet. */
const freshAdmin = () => ts.createUser(`remoteadmin${++counter}`);

beforeAll(async () => {
  remote = startRemoteMcpServer({ apiKey });
  // Loopback is refused by default: the test's servers live there (127.0.0.1 and its name localhost).
  ts = await startTestService({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost' } });
  admin = await freshAdmin();
});
afterAll(async () => {
  await ts.stop();
  await remote.stop();
});

describe('remote MCP servers: the proxy against a real server', () => {
  test("tools are listed prefixed with the server's name, with schemas and annotations; the admin's header reached the server", async () => {
    const id = await attach(admin, { name: 'remote', url: remote.url, headers: { 'X-Api-Key': apiKey } });
    const before = remote.received.length;
    const list = await tools(admin);
    expect(list.skipped).toEqual([]);
    expect(list.tools.map((tool) => tool.prefixed_name).sort()).toEqual(['remote__big', 'remote__echo', 'remote__fails']);
    const echo = list.tools.find((tool) => tool.name === 'echo')!;
    expect(echo).toMatchObject({ server: 'remote', server_id: id, description: 'Answers with the text it was given.', annotations: { readOnlyHint: true } });
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.output_schema).toMatchObject({ type: 'object', properties: { echoed: { type: 'string' } } });
    const seen = remote.received.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) expect(request.headers['x-api-key']).toBe(apiKey);
  });

  test('a call answers the remote CallToolResult; tool errors are results, not failures; each call is audit-logged without its arguments', async () => {
    const id = await attach(admin, { name: 'caller', url: remote.url, headers: { 'x-api-key': apiKey } });
    const before = remote.received.length;
    const echoed = await call(admin, id, 'echo', { text: 'hello from loadplane' });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toEqual({
      content: [{ type: 'text', text: 'hello from loadplane' }],
      structuredContent: { echoed: 'hello from loadplane' },
      isError: false,
      truncated: false,
    });
    expect(remote.received.slice(before).every((request) => request.headers['x-api-key'] === apiKey)).toBe(true);

    const failed = await call(admin, id, 'fails');
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] });

    // A remote that refuses the arguments answers a tool error (the SDK validates input), passed on as such.
    const invalid = await call(admin, id, 'echo', { text: 42 });
    expect(invalid.status).toBe(200);
    expect(invalid.body.isError).toBe(true);

    const auditText = await (await ts.request('/api/v1/audit-log?limit=5', { token: admin })).text();
    const audit = JSON.parse(auditText) as { action: string; target: { id: string }; details: Record<string, unknown> }[];
    const calls = audit.filter((entry) => entry.action === 'mcp_server.tool_called' && entry.target.id === id);
    expect(calls.map((entry) => entry.details)).toEqual([
      { tool: 'echo', outcome: 'tool_error' },
      { tool: 'fails', outcome: 'tool_error' },
      { tool: 'echo', outcome: 'ok' },
    ]);
    expect(auditText).not.toContain('hello from loadplane');
    expect(auditText).not.toContain(apiKey);
  });

  test('a result over 1 MiB is cut, with a note saying what was left out', async () => {
    const id = await attach(admin, { name: 'large', url: remote.url, headers: { 'x-api-key': apiKey } });
    const { status, body } = await call(admin, id, 'big');
    expect(status).toBe(200);
    expect(body.truncated).toBe(true);
    expect(new TextEncoder().encode(JSON.stringify(body)).length).toBeLessThanOrEqual(defaultRemoteMcpLimits.maxResultBytes);
    expect(body.content[0]!.text!.length).toBeGreaterThan(1000 * 1024);
    expect(body.content.at(-1)!.text).toContain('left out: the end of content item 1, content items 2 to 2');
  });

  test('a server with sessions: each list and call ends its session (DELETE), none is left open', async () => {
    const owner = await freshAdmin();
    const stateful = startRemoteMcpServer({ apiKey, stateful: true });
    try {
      const id = await attach(owner, { name: 'sessions', url: stateful.url, headers: { 'x-api-key': apiKey } });
      expect((await tools(owner)).tools.map((tool) => tool.prefixed_name).sort()).toEqual(['sessions__big', 'sessions__echo', 'sessions__fails']);
      expect((await call(owner, id, 'echo', { text: 'with a session' })).body.structuredContent).toEqual({ echoed: 'with a session' });
      // The answers do not wait for the sessions' end: it follows them.
      await waitFor(() => stateful.openSessions() === 0, 30_000, 'both sessions to be ended');
      expect(stateful.received.filter((request) => request.method === 'DELETE').length).toBe(2);
      expect(stateful.received.every((request) => request.headers['x-api-key'] === apiKey)).toBe(true);
    } finally {
      await stateful.stop();
    }
  });

  test('a member gets 403 on the tool list and on a call', async () => {
    const owner = await freshAdmin();
    const id = await attach(owner, { name: 'members-no', url: remote.url, headers: { 'x-api-key': apiKey } });
    const workspace = (await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string };
    const memberName = `remotemember${counter}`;
    const member = await ts.createUser(memberName);
    await ts.request('/api/v1/auth/me', { token: member });
    expect((await inviteAndAccept(ts, owner, memberName, 'member', member)).invited.status).toBe(201);
    const headers = { 'x-workspace-id': workspace.id };
    expect((await ts.request('/api/v1/mcp-servers/tools', { token: member, headers })).status).toBe(403);
    const called = await ts.request(`/api/v1/mcp-servers/${id}/call`, { method: 'POST', token: member, headers, json: { tool: 'echo', arguments: { text: 'x' } } });
    expect(called.status).toBe(403);
  });
});

describe('remote MCP servers: failing servers', () => {
  test('without the right header: skipped in the list with the HTTP status, a call answers 502', async () => {
    const owner = await freshAdmin();
    await attach(owner, { name: 'good', url: remote.url, headers: { 'x-api-key': apiKey } });
    const id = await attach(owner, { name: 'nokey', url: remote.url });
    const list = await tools(owner);
    expect(list.tools.every((tool) => tool.server === 'good')).toBe(true);
    expect(list.tools.length).toBe(3);
    expect(list.skipped).toEqual([{ server: 'nokey', server_id: id, reason: expect.stringContaining('HTTP 401') }]);
    const called = await call(owner, id, 'echo', { text: 'x' });
    expect(called.status).toBe(502);
    expect(called.body).toMatchObject({ error: 'bad_gateway', message: expect.stringContaining('HTTP 401') });
  });

  test('a stopped server is skipped (the others still answer) and a call to it answers 502', async () => {
    const owner = await freshAdmin();
    const doomed = startRemoteMcpServer({ apiKey });
    const id = await attach(owner, { name: 'doomed', url: doomed.url, headers: { 'x-api-key': apiKey } });
    await attach(owner, { name: 'alive', url: remote.url, headers: { 'x-api-key': apiKey } });
    expect((await tools(owner)).tools.filter((tool) => tool.server === 'doomed').length).toBe(3);
    await doomed.stop();
    const list = await tools(owner);
    expect(list.skipped).toEqual([{ server: 'doomed', server_id: id, reason: expect.stringContaining('connection refused') }]);
    expect(list.tools.map((tool) => tool.server)).toEqual(['alive', 'alive', 'alive']);
    const called = await call(owner, id, 'echo', { text: 'x' });
    expect(called.status).toBe(502);
    expect(called.body.message).toContain('connection refused');
  });

  test('a server that accepts but never answers is skipped at the list deadline; a call ends at the handshake deadline', async () => {
    const held: Socket[] = [];
    const hanging: Server = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const owner = await freshAdmin();
      const port = (hanging.address() as { port: number }).port;
      const id = await attach(owner, { name: 'hanging', url: `http://127.0.0.1:${port}/mcp`, headers: { 'x-api-key': apiKey } });
      const list = await tools(owner);
      expect(list.skipped).toEqual([{ server: 'hanging', server_id: id, reason: `no answer within ${defaultRemoteMcpLimits.listMillis / 1000} s` }]);
      const called = await call(owner, id, 'echo', { text: 'x' });
      expect(called.status).toBe(502);
      expect(called.body.message).toContain(`no MCP handshake within ${defaultRemoteMcpLimits.handshakeMillis / 1000} s`);
    } finally {
      for (const socket of held) socket.destroy();
      hanging.close();
    }
  });

  test('a redirect to another origin is not followed: the header never leaves the configured origin', async () => {
    const owner = await freshAdmin();
    const elsewhere = startRemoteMcpServer({ apiKey });
    // Same port, another origin (localhost, not 127.0.0.1): only the URL's own origin is trusted with the header.
    const redirecting = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response(null, { status: 307, headers: { location: `http://localhost:${elsewhere.port}/mcp` } }),
    });
    try {
      const id = await attach(owner, { name: 'redirects', url: `http://127.0.0.1:${redirecting.port}/mcp`, headers: { 'x-api-key': apiKey } });
      const list = await tools(owner);
      expect(list.skipped).toEqual([{ server: 'redirects', server_id: id, reason: expect.stringContaining('not followed') }]);
      expect((await call(owner, id, 'echo', { text: 'x' })).status).toBe(502);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await redirecting.stop(true);
      await elsewhere.stop();
    }
  });

  test('the URL is checked again at every list and call: an address refused by now is never contacted', async () => {
    const owner = await freshAdmin();
    const id = await attach(owner, { name: 'moved', url: remote.url, headers: { 'x-api-key': apiKey } });
    // As if the name now resolved elsewhere, or the allow-list had changed: the stored URL is one the guard refuses.
    await sqlOf(ts.service.database).all('update mcp_servers set url = ? where id = ?', ['http://10.11.12.13/mcp', id]);
    const list = await tools(owner);
    expect(list.skipped).toEqual([{ server: 'moved', server_id: id, reason: expect.stringContaining('private (10.0.0.0/8)') }]);
    const called = await call(owner, id, 'echo', { text: 'x' });
    expect(called.status).toBe(502);
    expect(called.body.message).toContain('private (10.0.0.0/8)');
  });
});
