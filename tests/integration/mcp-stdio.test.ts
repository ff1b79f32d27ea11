/**
 * `loadplane mcp` and `npm run --silent mcp`, the stdio MCP server, against a real listening service with an agent:
 * stdout holds nothing but protocol (logs on stderr, a bad token included), a missing address or token exits 2 with
 * the usage, and the official SDK client (StdioClientTransport) lists every tool and calls each with real data over
 * the network, with the token's REST rights.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type GitHttpServer, startGitHttpServer } from '../helpers/git-http-server.ts';
import { runLoadplane } from '../helpers/loadplane-cli.ts';
import { call, callError, stdioClient } from '../helpers/mcp-client.ts';
import { startStepsTarget, tourEveryTool } from '../helpers/mcp-tour.ts';
import { repoRoot } from '../helpers/service-process.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const owner = 'mcp-stdio-owner';
let fixture: ServiceWithAgent;
let target: ReturnType<typeof startStepsTarget>;
let git: GitHttpServer;
let machineId: string;
let client: Client;
let clientStderr: () => string;

beforeAll(async () => {
  target = startStepsTarget();
  git = await startGitHttpServer();
  fixture = await startServiceWithAgent(owner, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  machineId = ((await (await fixture.ts.request('/api/v1/machines', { token: fixture.token })).json()) as { id: string }[])[0]!.id;
  ({ client, stderr: clientStderr } = await stdioClient(fixture.ts.url, fixture.token));
}, 90_000);

afterAll(async () => {
  await client?.close();
  await fixture?.stop();
  await git?.stop();
  target?.stop();
});

/** Runs `npm run --silent mcp` with these requests on stdin (then closes it) and collects what it writes. */
function npmMcp(env: Record<string, string>, requests: object[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'mcp'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
  });
}

const handshake = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

/** Every stdout line is one JSON-RPC 2.0 message: the messages by id. */
function protocolOnly(stdout: string): Map<number, { result?: Record<string, unknown>; error?: unknown }> {
  const lines = stdout.split('\n').filter((line) => line !== '');
  const byId = new Map<number, { result?: Record<string, unknown>; error?: unknown }>();
  for (const line of lines) {
    const message = JSON.parse(line) as { jsonrpc: string; id: number; result?: Record<string, unknown>; error?: unknown };
    expect(message.jsonrpc, line).toBe('2.0');
    byId.set(message.id, message);
  }
  return byId;
}

describe('loadplane mcp (stdio)', () => {
  test('without SERVICE_API_URL or SERVICE_API_TOKEN it exits 2 with the usage on stderr and nothing on stdout', async () => {
    const environments: Record<string, string>[] = [{}, { SERVICE_API_URL: fixture.ts.url }, { SERVICE_API_TOKEN: fixture.token }, { SERVICE_API_URL: 'ftp://x', SERVICE_API_TOKEN: 'psk_x' }];
    for (const env of environments) {
      const result = await runLoadplane(['mcp'], env);
      expect(result.code, JSON.stringify(env)).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('usage: loadplane mcp');
      expect(result.stderr).toContain('SERVICE_API_TOKEN');
    }
  });

  test('npm run --silent mcp: stdout holds only protocol, every request answered, logs on stderr', async () => {
    const result = await npmMcp(
      // The workspace address with its /api/v1 works as well as without; debug logging must stay off stdout.
      { SERVICE_API_URL: `${fixture.ts.url}/api/v1/`, SERVICE_API_TOKEN: fixture.token, LOG_LEVEL: 'debug' },
      [
        ...handshake,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_run', arguments: { run_id: 'no-such-run' } } },
        { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'loadplane://script-formats/http' } },
      ],
    );
    expect(result.code, result.stderr).toBe(0);
    const answers = protocolOnly(result.stdout);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(answers.get(1)!.result!.serverInfo).toMatchObject({ name: 'loadplane' });
    expect((answers.get(2)!.result!.tools as unknown[]).length).toBe(33);
    expect(answers.get(3)!.result!.structuredContent).toMatchObject({ role: 'owner' });
    expect(answers.get(4)!.result).toMatchObject({ isError: true });
    expect(JSON.parse((answers.get(4)!.result!.content as { text: string }[])[0]!.text)).toMatchObject({ error: 'not_found', status: 404 });
    expect(((answers.get(5)!.result!.contents as { text: string }[])[0]!.text)).toContain('steps:');
    expect(result.stderr).not.toContain(fixture.token);
  }, 60_000);

  test('a bad token: tools answer unauthorized, a warning on stderr (never the token), stdout still only protocol', async () => {
    const token = 'psk_definitely-not-a-token';
    const result = await npmMcp({ SERVICE_API_URL: fixture.ts.url, SERVICE_API_TOKEN: token }, [
      ...handshake,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    ]);
    expect(result.code, result.stderr).toBe(0);
    const answers = protocolOnly(result.stdout);
    expect(JSON.parse((answers.get(2)!.result!.content as { text: string }[])[0]!.text)).toMatchObject({ error: 'unauthorized', status: 401 });
    expect(result.stderr).toContain('refused the token');
    expect(result.stderr).not.toContain(token);
  }, 60_000);

  test('the SDK client over stdio: every tool listed, and called with real data over the network', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(33);
    const called = await tourEveryTool(client, { ts: fixture.ts, token: fixture.token, machineId, hostname: `${owner}-agent`, target, git, prefix: 'stdio' });
    expect(called.size, clientStderr()).toBe(tools.length);
    expect([...called].sort()).toEqual(tools.map((tool) => tool.name).sort());
  }, 300_000);

  test('validate_test checks with the built-in tool plugins of the program itself', async () => {
    const resource = await client.readResource({ uri: 'loadplane://script-formats/k6' });
    const example = /```js\n([\s\S]*?)```/.exec((resource.contents[0] as { text: string }).text)![1]!;
    expect(await call(client, 'validate_test', { tool: 'k6', script: example })).toMatchObject({ valid: true, checked_by: 'local' });
    expect(await call(client, 'validate_test', { tool: 'jmeter', script: 'plain text' })).toMatchObject({ valid: false, checked_by: 'local' });
    expect((await callError(client, 'validate_test', { tool: 'hey', script: 'x' })).message).toContain('this MCP program');
  });

  test('a tests:read token over stdio: REST\'s scopes hold, run_test is a tool error', async () => {
    const created = await fixture.ts.request('/api/v1/api-tokens', { method: 'POST', token: fixture.jwt, json: { name: 'stdio read-only', scopes: ['tests:read'] } });
    const { client: readOnly } = await stdioClient(fixture.ts.url, ((await created.json()) as { token: string }).token);
    try {
      const tests = (await call(readOnly, 'list_tests')).items as { id: string }[];
      expect(tests.length).toBeGreaterThan(0);
      expect(await callError(readOnly, 'run_test', { test_id: tests[0]!.id })).toMatchObject({ error: 'insufficient_scope', status: 403 });
    } finally {
      await readOnly.close();
    }
  }, 60_000);
});
