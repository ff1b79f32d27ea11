/**
 * The example third-party plugin (examples/loadplane-plugin-hey) loaded by package name on the server
 * (LOADPLANE_PLUGINS) and on an agent process (`npm run agent -- --plugins`), running real hey end to end: its tool id
 * in the API and its OpenAPI enum, its version on GET /machines, and runs whose total_requests equal the target's count.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { heyEngine } from 'loadplane-plugin-hey';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { expectRefused, runToEnd, startDelayTarget, type Task, type TaskOptions } from '../helpers/engine-runs.ts';
import { passEnv, type ServiceWithAgentProcess, startServiceWithAgentProcess } from '../helpers/service-with-agent.ts';

const hey = await locateEngineOnHost(heyEngine, { env: process.env });
let fixture: ServiceWithAgentProcess | null = null;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  if (!hey.found) return;
  // A known delay, so the percentiles have something to measure.
  target = startDelayTarget({ delayMs: () => 3 });
  // Every test runs on this machine, whatever the first test finds out about it.
  fixture = await startServiceWithAgentProcess('hey-owner', {
    env: { LOADPLANE_PLUGINS: 'loadplane-plugin-hey' },
    hostname: 'hey-generator',
    agentArgs: ['--plugins', 'loadplane-plugin-hey'],
    agentEnv: passEnv('HEY_BIN'),
  });
}, 90_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

const ready = () => requireOrSkip(hey.found ? null : hey.reason, 'the example plugin suite');

/** A hey run on the agent's machine, to its end; with the requests the target served meanwhile. */
function runHey(script: Record<string, unknown>, config?: Record<string, unknown>) {
  const options: TaskOptions = { tool: 'hey', script: JSON.stringify(script), machineIds: [fixture!.machineId], ...(config ? { config } : {}) };
  return runToEnd(fixture!.ts, fixture!.token, target, options, () => fixture!.agent.output().slice(-3000));
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
    const { ts, token, agent, machineId } = fixture!;
    expect(agent.output()).toContain('load tools on this machine:');
    expect(agent.output()).toMatch(/\n {2}hey\s+v0\.1\.4\n/);
    const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as {
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
    const { ts, token } = fixture!;
    const document = (await (await ts.request('/swagger-ui/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    };
    expect(document.components.schemas.TestCreate!.properties.tool!.enum).toEqual(['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom', 'hey', 'http']);
    await expectRefused(ts, token, { tool: 'vegeta', script: '{}' }, 'body field "tool": must be one of k6, jmeter, locust, artillery, gatling, custom, hey, http (got "vegeta")');
    // The plugin's own script check answers when the test is saved.
    await expectRefused(ts, token, { tool: 'hey', script: '{"requests": 10}' }, '"url" must be an http:// or https:// URL');
  });

  test('a run of real hey on the agent: total_requests is the target\'s own count, with p50 <= p95 <= p99', async () => {
    if (!ready()) return;
    // 250 requests by 6 workers: 246 in one hey run, the remaining 4 in a second (hey drops what does not divide).
    const { task, served } = await runHey({ url: `${target.url}/hey`, requests: 250, concurrency: 6 });
    expect(task.status).toBe('completed');
    expect(served).toBe(250);
    expect(task.total_requests).toBe(250);
    expect(task.error_rate).toBe(0);
    expectPercentiles(task);
  }, 60_000);

  test('with a staged load config (steps of hey -z, one after the other in the sandbox): the count still matches', async () => {
    if (!ready()) return;
    const { task, served: requests } = await runHey({ url: `${target.url}/staged` }, { stages: [{ duration: '1s', target: 2 }, { duration: '1s', target: 4 }] });
    expect(task.status).toBe('completed');
    expect(requests).toBeGreaterThan(50);
    expect(task.total_requests).toBe(requests);
    expectPercentiles(task);
  }, 60_000);
});
