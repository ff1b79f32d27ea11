/**
 * Remote MCP servers in Loadplane's own MCP server (issue 19): a real remote server (the SDK's, on loopback) attached
 * by an admin shows its tools prefixed `<server>__<tool>` to an admin's token over POST /api/mcp and over `loadplane
 * mcp` (stdio: through the service's proxy, the headers never leave it), not to a member's; a call reaches the remote
 * server and counts against the AI budget; stopped, the server is skipped and the base tools answer.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { call, httpClient, stdioClient } from '../helpers/mcp-client.ts';
import { type RemoteMcpServer, startRemoteMcpServer } from '../helpers/remote-mcp-server.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const apiKey = 'remote-key-5c2b81';
let ts: TestService;
let remote: RemoteMcpServer;
let adminToken: string;
let memberToken: string;
const clients: Client[] = [];

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
const used = async (token: string) => ((await (await ts.request('/api/v1/usage', { token })).json()) as { ai_tool_calls: { used: number } }).ai_tool_calls.used;

beforeAll(async () => {
  remote = startRemoteMcpServer({ apiKey });
  // Loopback is refused by default: the remote server lives there.
  ts = await startTestService({ port: await freePort(), env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost' } });
  await ts.listen();
  const owner = await ts.apiToken('remote-tools-owner');
  adminToken = owner.token;
  const attached = await ts.request('/api/v1/mcp-servers', { method: 'POST', token: owner.jwt, json: { name: 'helper', url: remote.url, headers: { 'x-api-key': apiKey } } });
  expect(attached.status, await attached.clone().text()).toBe(201);
  const member = await ts.apiToken('remote-tools-member');
  await ts.request('/api/v1/workspace', { token: member.jwt });
  const { accepted } = await inviteAndAccept(ts, owner.jwt, 'remote-tools-member', 'member', member.jwt);
  if (!accepted) throw new Error('the member was not invited');
  memberToken = member.token;
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await ts?.stop();
  await remote?.stop();
});

test("an admin's token lists the remote tools prefixed beside the base tools, on both transports", async () => {
  const http = await httpClient(ts.url, adminToken);
  clients.push(http);
  const names = await toolNames(http);
  expect(names).toContain('whoami');
  expect(names).toContain('helper__echo');
  const echo = (await http.listTools()).tools.find((tool) => tool.name === 'helper__echo')!;
  expect(echo.description).toContain('helper');
  expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });

  const stdio = await stdioClient(ts.url, adminToken);
  clients.push(stdio.client);
  expect(await toolNames(stdio.client)).toContain('helper__echo');
  const result = await stdio.client.callTool({ name: 'helper__echo', arguments: { text: 'over stdio' } });
  expect(result.isError ?? false).toBe(false);
  expect(result.structuredContent).toEqual({ echoed: 'over stdio' });
  // The service called it with the admin's stored header; the stdio process never had it.
  expect(remote.received.some((request) => request.headers['x-api-key'] === apiKey)).toBe(true);
  expect(stdio.stderr()).not.toContain(apiKey);
}, 60_000);

test('a remote call reaches the server with its stored header and counts against the budget like any tool', async () => {
  const http = await httpClient(ts.url, adminToken);
  clients.push(http);
  const before = await used(adminToken);
  const seen = remote.received.length;
  const result = await http.callTool({ name: 'helper__echo', arguments: { text: 'hello remote' } });
  expect(result.isError ?? false).toBe(false);
  expect(result.content).toEqual([{ type: 'text', text: 'hello remote' }]);
  expect(remote.received.length).toBeGreaterThan(seen);
  expect(await used(adminToken)).toBe(before + 1);
  // A tool error of the remote server stays a tool error.
  const failed = await http.callTool({ name: 'helper__fails', arguments: {} });
  expect(failed.isError).toBe(true);
});

test("a member's token sees no remote tool and cannot call one", async () => {
  const http = await httpClient(ts.url, memberToken);
  clients.push(http);
  const names = await toolNames(http);
  expect(names).toContain('whoami');
  expect(names.some((name) => name.startsWith('helper__'))).toBe(false);
  await expect(http.callTool({ name: 'helper__echo', arguments: { text: 'x' } })).rejects.toThrow(/no tool named helper__echo/);
});

test('a stopped remote server is skipped: the base tools are listed and answer', async () => {
  await remote.stop();
  const http = await httpClient(ts.url, adminToken);
  clients.push(http);
  const names = await toolNames(http);
  expect(names).toContain('list_tests');
  expect(names.some((name) => name.startsWith('helper__'))).toBe(false);
  expect(await call(http, 'whoami')).toMatchObject({ role: 'owner' });
}, 60_000);
