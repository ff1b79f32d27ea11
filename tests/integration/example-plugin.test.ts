/**
 * The example third-party plugin (examples/loadplane-plugin-hey) loaded by package name on the server
 * (LOADPLANE_PLUGINS) and on an agent process (`npm run agent -- --plugins`), running real hey end to end: its tool id
 * in the API and its OpenAPI enum, its version on GET /machines, and runs whose total_requests equal the target's count.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { heyEngine } from 'loadplane-plugin-hey';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const hey = await locateEngineOnHost(heyEngine, { env: process.env });
let ts: TestService | null = null;
let agent: AgentProcess | null = null;
let token = '';
let machineId = '';
let target: ReturnType<typeof Bun.serve> | null = null;
let served = 0;

interface Task {
  id: string;
  status: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  error_rate: number | null;
  total_requests: number | null;
}

beforeAll(async () => {
  if (!hey.found) return;
  target = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch() {
      served++;
      // A known delay, so the percentiles have something to measure.
      await Bun.sleep(3);
      return new Response('ok');
    },
  });
  ts = await startTestService({ port: await freePort(), env: { LOADPLANE_PLUGINS: 'loadplane-plugin-hey' } });
  await ts.listen();
  const owner = await ts.apiToken('hey-owner');
  token = owner.token;
  const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'agent', scopes: ['machines:write', 'runs:write'] } });
  const agentToken = ((await created.json()) as { token: string }).token;
  agent = startAgentProcess({
    serverUrl: ts.url,
    token: agentToken,
    hostname: 'hey-generator',
    extraArgs: ['--plugins', 'loadplane-plugin-hey'],
    env: process.env.HEY_BIN ? { HEY_BIN: process.env.HEY_BIN } : {},
  });
  await agent.registered();
  // Every test runs on this machine, whatever the first test finds out about it.
  const listed = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; hostname: string }[];
  machineId = listed.find((m) => m.hostname === 'hey-generator')!.id;
}, 90_000);

afterAll(async () => {
  await agent?.kill();
  await ts?.stop();
  target?.stop(true);
});

const ready = () => requireOrSkip(hey.found ? null : hey.reason, 'the example plugin suite');

async function runHey(script: Record<string, unknown>, config?: Record<string, unknown>): Promise<Task> {
  const created = await ts!.request('/api/v1/tests', { method: 'POST', token, json: { name: 'hey run', tool: 'hey', script: JSON.stringify(script) } });
  expect(created.status).toBe(201);
  const { id: testId } = (await created.json()) as { id: string };
  let configId: string | undefined;
  if (config) {
    const saved = await ts!.request('/api/v1/configs', { method: 'POST', token, json: { name: 'hey config', ...config } });
    expect(saved.status).toBe(201);
    configId = ((await saved.json()) as { id: string }).id;
  }
  const started = await ts!.request('/api/v1/tasks', { method: 'POST', token, json: { testId, machineIds: [machineId], ...(configId ? { configId } : {}) } });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  for (let i = 0; i < 600; i++) {
    const task = (await (await ts!.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await Bun.sleep(100);
  }
  throw new Error('the hey run did not finish');
}

function expectPercentiles(task: Task) {
  expect(task.p50!).toBeGreaterThan(0);
  expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
  expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
  expect(task.p99!).toBeLessThan(2000);
}

describe('loadplane-plugin-hey, loaded by package name', () => {
  test('the agent found hey with its version; GET /machines shows its tools and versions', async () => {
    if (!ready()) return;
    expect(agent!.output()).toContain('load tools on this machine:');
    expect(agent!.output()).toMatch(/\n {2}hey\s+v0\.1\.4\n/);
    const machines = (await (await ts!.request('/api/v1/machines', { token })).json()) as {
      id: string;
      hostname: string;
      agent_version: string | null;
      tools: { tool: string; version: string | null }[];
    }[];
    const machine = machines.find((m) => m.id === machineId)!;
    expect(machine.agent_version).toBe('0.1.0');
    expect(machine.tools).toContainEqual({ tool: 'hey', version: 'v0.1.4' });
    expect(machine.tools).toContainEqual({ tool: 'custom', version: null });
  });

  test("the server accepts the plugin's tool id, documents it, and refuses a tool no plugin provides", async () => {
    if (!ready()) return;
    const document = (await (await ts!.request('/swagger-ui/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    };
    expect(document.components.schemas.TestCreate!.properties.tool!.enum).toEqual(['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom', 'hey']);
    const unknown = await ts!.request('/api/v1/tests', { method: 'POST', token, json: { name: 'nope', tool: 'vegeta', script: '{}' } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toContain('tool');
    // The plugin's own script check answers when the test is saved.
    const bad = await ts!.request('/api/v1/tests', { method: 'POST', token, json: { name: 'bad hey', tool: 'hey', script: '{"requests": 10}' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('"url" must be an http:// or https:// URL');
  });

  test('a run of real hey on the agent: total_requests is the target\'s own count, with p50 <= p95 <= p99', async () => {
    if (!ready()) return;
    const before = served;
    // 250 requests by 6 workers: 246 in one hey run, the remaining 4 in a second (hey drops what does not divide).
    const task = await runHey({ url: `http://127.0.0.1:${target!.port}/hey`, requests: 250, concurrency: 6 });
    expect(task.status).toBe('completed');
    expect(served - before).toBe(250);
    expect(task.total_requests).toBe(250);
    expect(task.error_rate).toBe(0);
    expectPercentiles(task);
  }, 60_000);

  test('with a staged load config (steps of hey -z, one after the other in the sandbox): the count still matches', async () => {
    if (!ready()) return;
    const before = served;
    const task = await runHey(
      { url: `http://127.0.0.1:${target!.port}/staged` },
      { stages: [{ duration: '1s', target: 2 }, { duration: '1s', target: 4 }] },
    );
    expect(task.status).toBe('completed');
    const requests = served - before;
    expect(requests).toBeGreaterThan(50);
    expect(task.total_requests).toBe(requests);
    expectPercentiles(task);
  }, 60_000);
});
