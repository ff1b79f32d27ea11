/**
 * POST /api/mcp with the official MCP SDK client against a real service with an agent: every tool listed with its
 * schemas and annotations, every tool called with real data (a run of native steps against a local target, its logs,
 * metrics, OTLP series, a repository, a cancelled run), the script-format resources valid, and the REST rights of the
 * token exactly: a tests:read token and a viewer get tool errors from run_test, a bad or missing token 401, GET and
 * DELETE 405.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type GitHttpServer, startGitHttpServer } from '../helpers/git-http-server.ts';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { call, callError, httpClient } from '../helpers/mcp-client.ts';
import { startStepsTarget, tourEveryTool } from '../helpers/mcp-tour.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const toolNames = [
  'whoami',
  'limits',
  'usage',
  'list_machines',
  'get_machine',
  'list_tests',
  'get_test',
  'list_configs',
  'list_runs',
  'get_run',
  'get_run_logs',
  'runs_by_machine',
  'metrics_catalog',
  'query_metrics',
  'get_otel_timeseries',
  'list_dashboards',
  'list_git_repos',
  'list_env_vars',
  'audit_log',
  'write_test',
  'write_config',
  'run_test',
  'sync_git_repo',
  'cancel_run',
  'wait_for_run',
  'validate_test',
  'get_run_verdict',
  'get_run_endpoints',
  'get_run_errors',
  'compare_runs',
  'set_baseline',
  'list_schedules',
  'write_schedule',
];
// validate_test writes only when asked for a dry run, but a hint is per tool: it may start a run, so it is no read.
const writers = ['write_test', 'write_config', 'run_test', 'sync_git_repo', 'cancel_run', 'validate_test', 'set_baseline', 'write_schedule'];
// cancel_run stops a run; write_schedule deletes a schedule when asked to (delete: true).
const destructive = ['cancel_run', 'write_schedule'];

const owner = 'mcp-http-owner';
let fixture: ServiceWithAgent;
let target: ReturnType<typeof startStepsTarget>;
let git: GitHttpServer;
let client: Client;
let machineId: string;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function post(headers: Record<string, string>, body: string = JSON.stringify(initialize)) {
  return fetch(`${fixture.ts.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });
}

/** A test of one GET against the target, made over REST: something to start. */
async function someTest(): Promise<string> {
  const created = await fixture.ts.request('/api/v1/tests', {
    method: 'POST',
    token: fixture.token,
    json: { name: `probe ${crypto.randomUUID()}`, tool: 'http', script: `steps:\n  - {method: GET, url: ${target.url}/hello}\n` },
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

const runCount = async () => ((await (await fixture.ts.request('/api/v1/tasks?limit=1000', { token: fixture.token })).json()) as unknown[]).length;

beforeAll(async () => {
  target = startStepsTarget();
  git = await startGitHttpServer();
  // The git repository of the tour is served on loopback.
  fixture = await startServiceWithAgent(owner, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  machineId = ((await (await fixture.ts.request('/api/v1/machines', { token: fixture.token })).json()) as { id: string }[])[0]!.id;
  client = await httpClient(fixture.ts.url, fixture.token);
}, 90_000);

afterAll(async () => {
  await client?.close();
  await fixture?.stop();
  await git?.stop();
  target?.stop();
});

describe('POST /api/mcp', () => {
  test('every tool is listed with a description, input and output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolNames);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!writers.includes(tool.name));
      expect(tool.annotations?.destructiveHint ?? false, tool.name).toBe(destructive.includes(tool.name));
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    // Paged lists take limit and cursor, and answer next_cursor.
    for (const name of ['list_machines', 'list_tests', 'list_configs', 'list_runs', 'list_dashboards', 'list_git_repos', 'list_env_vars', 'audit_log']) {
      const tool = tools.find((each) => each.name === name)!;
      expect(Object.keys(tool.inputSchema.properties!), name).toEqual(['limit', 'cursor']);
      expect(Object.keys(tool.outputSchema!.properties!), name).toEqual(['items', 'next_cursor']);
    }
  });

  test('every tool, called with real data, answers within its output schema', async () => {
    const called = await tourEveryTool(client, { ts: fixture.ts, token: fixture.token, machineId, hostname: `${owner}-agent`, target, git, prefix: 'http' });
    expect([...called].sort()).toEqual([...toolNames].sort());
  }, 300_000);

  test('the script-format resources: one per tool, each example accepted by the service', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      ['artillery', 'custom', 'gatling', 'http', 'jmeter', 'k6', 'locust'].map((tool) => `loadplane://script-formats/${tool}`),
    );
    for (const resource of resources) {
      const tool = resource.uri.split('/').at(-1)!;
      const { contents } = await client.readResource({ uri: resource.uri });
      const text = (contents[0] as { text: string }).text;
      const example = /```\w+\n([\s\S]*?)```/.exec(text)![1]!;
      expect(await call(client, 'validate_test', { tool, script: example }), tool).toMatchObject({ tool, valid: true, error: null, checked_by: 'service' });
    }
    const broken = await call(client, 'validate_test', { tool: 'k6', script: 'not javascript at all {' });
    expect(broken).toMatchObject({ valid: false, checked_by: 'service' });
    expect(await callError(client, 'validate_test', { tool: 'no-such-tool', script: 'x' })).toMatchObject({ error: 'bad_request' });
  });

  test('arguments are checked against the input schema: a tool error naming the field, nothing called', async () => {
    const before = await runCount();
    const wrong = await callError(client, 'run_test', { test_id: 42 });
    expect(wrong).toMatchObject({ error: 'bad_request', status: 400 });
    expect(wrong.message).toContain('/test_id');
    expect((await callError(client, 'list_runs', { limit: 5000 })).message).toContain('/limit');
    expect((await callError(client, 'write_test', { name: 'x', tool: 'k6', steps: [{ method: 'GET', url: 'http://x/' }] })).message).toContain('http');
    expect(await runCount()).toBe(before);
  });

  test('a tests:read token reads tests; run_test is a tool error with REST\'s insufficient_scope, and nothing runs', async () => {
    const testId = await someTest();
    const created = await fixture.ts.request('/api/v1/api-tokens', { method: 'POST', token: fixture.jwt, json: { name: 'mcp read-only', scopes: ['tests:read'] } });
    const readOnly = await httpClient(fixture.ts.url, ((await created.json()) as { token: string }).token);
    try {
      const tests = await call(readOnly, 'list_tests');
      expect((tests.items as { id: string }[]).map((each) => each.id)).toContain(testId);
      const before = await runCount();
      const refused = await callError(readOnly, 'run_test', { test_id: testId });
      expect(refused).toMatchObject({ error: 'insufficient_scope', status: 403 });
      expect(refused.message).toContain('runs:write');
      expect(await runCount()).toBe(before);
      expect(await callError(readOnly, 'list_runs')).toMatchObject({ error: 'insufficient_scope', status: 403 });
    } finally {
      await readOnly.close();
    }
  });

  test('a viewer reads the workspace but cannot run_test (forbidden: the role lacks run_tests)', async () => {
    const testId = await someTest();
    const workspaceId = ((await (await fixture.ts.request('/api/v1/workspace', { token: fixture.token })).json()) as { id: string }).id;
    // Viewers may not make API tokens by default; this workspace lets them (Access Controls), as an owner may.
    const opened = await fixture.ts.request('/api/v1/access-controls', { method: 'PUT', token: fixture.jwt, json: { roles: { viewer: ['manage_api_tokens'] } } });
    expect(opened.status).toBe(200);
    const viewerJwt = await fixture.ts.createUser('mcp-viewer');
    // Signed in once (a workspace of their own as owner), so they can be invited.
    await fixture.ts.request('/api/v1/auth/me', { token: viewerJwt });
    const { invited } = await inviteAndAccept(fixture.ts, fixture.jwt, 'mcp-viewer', 'viewer', viewerJwt);
    expect(invited.status, await invited.clone().text()).toBe(201);
    const created = await fixture.ts.request('/api/v1/api-tokens', { method: 'POST', token: viewerJwt, headers: { 'x-workspace-id': workspaceId }, json: { name: 'viewer agent' } });
    expect(created.status).toBe(201);
    const viewer = await httpClient(fixture.ts.url, ((await created.json()) as { token: string }).token);
    // A JWT caller picks the workspace with X-Workspace-Id, as on REST.
    const viewerByJwt = await httpClient(fixture.ts.url, viewerJwt, { 'x-workspace-id': workspaceId });
    try {
      for (const each of [viewer, viewerByJwt]) {
        expect(await call(each, 'whoami')).toMatchObject({ role: 'viewer', workspace: { id: workspaceId } });
        expect(((await call(each, 'list_tests')).items as { id: string }[]).map((test) => test.id)).toContain(testId);
        const before = await runCount();
        const refused = await callError(each, 'run_test', { test_id: testId });
        expect(refused).toMatchObject({ error: 'forbidden', status: 403 });
        expect(refused.message).toContain('run_tests');
        expect(await runCount()).toBe(before);
      }
    } finally {
      await viewer.close();
      await viewerByJwt.close();
    }
  });

  test('401 with the spec\'s error body without a token, with a bad one, or another scheme', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer psk_not-a-real-token' }, { authorization: 'Basic YWRtaW46YWRtaW4=' }, { authorization: 'Bearer' }];
    for (const headers of attempts) {
      const answer = await post(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toStartWith('Bearer');
      const body = (await answer.json()) as { error: string; message: string };
      expect(typeof body.error).toBe('string');
      expect(body.message.length).toBeGreaterThan(0);
    }
    await expect(httpClient(fixture.ts.url, 'psk_not-a-real-token')).rejects.toThrow();
  });

  test('GET and DELETE answer 405 with Allow: POST and the spec\'s error body; an oversized body 413', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${fixture.ts.url}/api/mcp`, { method, headers: { authorization: `Bearer ${fixture.token}`, accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(await answer.json()).toMatchObject({ error: 'method_not_allowed' });
    }
    const huge = await post({ authorization: `Bearer ${fixture.token}` }, JSON.stringify({ ...initialize, padding: 'x'.repeat(3 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: 'payload_too_large' });
  });
});
