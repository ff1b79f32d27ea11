/**
 * The real Gatling (scripts/install-engines gatling) through the whole service and a real agent process: API ->
 * dispatcher -> `npm run agent` -> its tool sandbox -> Gatling's JVM -> merged figures, checked against a local target
 * that counts its requests and answers after a known delay; a staged load config; a refused script; and a cancel that
 * leaves no JVM behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { gatlingEngine, gatlingVersion } from '../../plugins/load-tool-gatling/engine.ts';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const gatling = await locateEngineOnHost(gatlingEngine, { env: process.env });
const ready = (what: string) => requireOrSkip(gatling.found ? null : gatling.reason, what);

/** The target's known delay: every answer takes 10 to 30 ms. */
const minDelayMs = 10;
const maxDelayMs = 30;
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
  requests_per_sec: number | null;
}

beforeAll(async () => {
  if (!gatling.found) return;
  target = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch() {
      served++;
      await Bun.sleep(minDelayMs + Math.random() * (maxDelayMs - minDelayMs));
      return new Response('ok');
    },
  });
  ts = await startTestService({ port: await freePort() });
  await ts.listen();
  const owner = await ts.apiToken('gatling-owner');
  token = owner.token;
  const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'agent', scopes: ['machines:write', 'runs:write'] } });
  agent = startAgentProcess({
    serverUrl: ts.url,
    token: ((await created.json()) as { token: string }).token,
    hostname: 'gatling-generator',
    env: process.env.GATLING_BIN ? { GATLING_BIN: process.env.GATLING_BIN } : {},
  });
  await agent.registered(1, 60_000);
}, 120_000);

afterAll(async () => {
  await agent?.kill();
  await ts?.stop();
  target?.stop(true);
});

/** A simulation whose users each make one request to `path`; its injection is the task's load config. */
const simulation = (path: string) => `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;
import loadplane.gatling.Loadplane;

public class StagedSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("http://127.0.0.1:${target!.port}");
  ScenarioBuilder scenario = scenario("staged").exec(http("get").get("${path}"));

  {
    setUp(scenario.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(1)))).protocols(protocol);
  }
}
`;

async function startTask(script: string, config: Record<string, unknown>): Promise<{ http: number; id?: string; message?: string }> {
  const created = await ts!.request('/api/v1/tests', { method: 'POST', token, json: { name: 'gatling run', tool: 'gatling', script } });
  // A script the plugin refuses is refused when saved.
  if (created.status !== 201) return { http: created.status, message: ((await created.json()) as { message?: string }).message };
  const { id: testId } = (await created.json()) as { id: string };
  const saved = await ts!.request('/api/v1/configs', { method: 'POST', token, json: { name: 'gatling config', ...config } });
  expect(saved.status).toBe(201);
  const { id: configId } = (await saved.json()) as { id: string };
  const started = await ts!.request('/api/v1/tasks', { method: 'POST', token, json: { testId, configId, machineIds: [machineId] } });
  const body = (await started.json()) as { id?: string; message?: string };
  return { http: started.status, id: body.id, message: body.message };
}

async function finished(id: string, timeoutMs = 90_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const task = (await (await ts!.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await Bun.sleep(100);
  }
  throw new Error(`the Gatling run did not finish:\n${agent!.output().slice(-3000)}`);
}

/** Pids of processes whose command line holds `argument` (the JVM gets -Dloadplane.taskId=<task id>). */
function processesWith(argument: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('Gatling through the service and a real agent', () => {
  test('the agent found Gatling with its version; GET /machines shows it', async () => {
    if (!ready('the Gatling integration suite')) return;
    expect(agent!.output()).toMatch(new RegExp(`\\n {2}gatling\\s+${gatlingVersion.replace(/\./g, '\\.')}\\n`));
    const machines = (await (await ts!.request('/api/v1/machines', { token })).json()) as { id: string; hostname: string; tools: { tool: string; version: string | null }[] }[];
    const machine = machines.find((m) => m.hostname === 'gatling-generator')!;
    machineId = machine.id;
    expect(machine.tools).toContainEqual({ tool: 'gatling', version: gatlingVersion });
  });

  test('a script that is no Gatling simulation: 400 naming what is missing', async () => {
    if (!ready('the Gatling validation test')) return;
    const refused = await startTask('import io.gatling.javaapi.core.*;\npublic class NoSetUp extends Simulation {}\n', { vus: 1, duration: '1s' });
    expect(refused.http).toBe(400);
    expect(refused.message).toContain('must call setUp(...)');
  });

  test('three stages: total_requests is the target\'s own count, p50 <= p95 <= p99 within the target\'s delay', async () => {
    if (!ready('the Gatling staged run')) return;
    const before = served;
    const started = await startTask(simulation('/staged'), {
      stages: [
        { duration: '2s', target: 3 },
        { duration: '2s', target: 3 },
        { duration: '1s', target: 6 },
      ],
    });
    expect(started.http).toBe(202);
    const task = await finished(started.id!);
    expect(task.status, agent!.output().slice(-3000)).toBe('completed');
    const requests = served - before;
    expect(requests).toBeGreaterThan(50);
    expect(task.total_requests).toBe(requests);
    expect(task.error_rate).toBe(0);
    // Gatling measures from before the request is written to after the response: at least the target's delay.
    expect(task.p50!).toBeGreaterThanOrEqual(minDelayMs);
    expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
    expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
    // The median stays near the delay; the margin absorbs a busy CI machine (no timing claim beyond that).
    expect(task.p50!).toBeLessThanOrEqual(maxDelayMs + 100);
    expect(task.p99!).toBeLessThan(1000);
    console.log(`gatling staged run: ${requests} requests, p50 ${task.p50} ms, p95 ${task.p95} ms, p99 ${task.p99} ms, ${task.requests_per_sec} req/s`);
  }, 120_000);

  test('cancel mid-run: the task is cancelled and no JVM of it is left', async () => {
    if (!ready('the Gatling cancel test')) return;
    const before = served;
    const started = await startTask(simulation('/cancel'), { vus: 3, duration: '5m' });
    expect(started.http).toBe(202);
    const jvmArgument = `-Dloadplane.taskId=${started.id}`;
    const deadline = Date.now() + 60_000;
    while (served - before < 30 && Date.now() < deadline) await Bun.sleep(50);
    expect(served - before).toBeGreaterThanOrEqual(30);
    expect(processesWith(jvmArgument).length).toBeGreaterThan(0);
    const cancelled = await ts!.request(`/api/v1/tasks/${started.id}`, { method: 'DELETE', token });
    expect(cancelled.status).toBe(204);
    const gone = Date.now() + 20_000;
    while (processesWith(jvmArgument).length > 0 && Date.now() < gone) await Bun.sleep(100);
    expect(processesWith(jvmArgument)).toEqual([]);
    const task = (await (await ts!.request(`/api/v1/tasks/${started.id}`, { token })).json()) as Task;
    expect(task.status).toBe('cancelled');
    // The target sees no more requests once the JVM is gone.
    const after = served;
    await Bun.sleep(500);
    expect(served).toBe(after);
  }, 120_000);
});
