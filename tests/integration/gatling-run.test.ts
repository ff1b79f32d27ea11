/**
 * The real Gatling (scripts/install-engines gatling) through the whole service and a real agent process: API ->
 * dispatcher -> `npm run agent` -> its tool sandbox -> Gatling's JVM -> merged figures, checked against a local target
 * that counts its requests and answers after a known delay; a staged load config; a refused script; and a cancel that
 * leaves no JVM behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { gatlingEngine, gatlingVersion } from '../../plugins/load-tool-gatling/engine.ts';
import { cancelLeavesNothing, expectRefused, expectServedFigures, processesWith, runToEnd, startDelayTarget, startServing, type TaskOptions } from '../helpers/engine-runs.ts';
import { passEnv, type ServiceWithAgentProcess, startServiceWithAgentProcess } from '../helpers/service-with-agent.ts';
import { repoRoot } from '../helpers/service-process.ts';

const gatling = await locateEngineOnHost(gatlingEngine, { env: process.env });
const ready = (what: string) => requireOrSkip(gatling.found ? null : gatling.reason, what);

/** The target's known delay: every answer takes 10 to 30 ms. */
const minDelayMs = 10;
const maxDelayMs = 30;
let fixture: ServiceWithAgentProcess | null = null;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  if (!gatling.found) return;
  target = startDelayTarget({ delayMs: () => minDelayMs + Math.random() * (maxDelayMs - minDelayMs) });
  // Every test runs on this machine, whatever the first test finds out about it.
  fixture = await startServiceWithAgentProcess('gatling-owner', { hostname: 'gatling-generator', agentEnv: passEnv('GATLING_BIN'), registerTimeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

/** A simulation whose users each make one request to `path`; its injection is the task's load config. */
const simulation = (path: string) => `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;
import loadplane.gatling.Loadplane;

public class StagedSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("${target.url}");
  ScenarioBuilder scenario = scenario("staged").exec(http("get").get("${path}"));

  {
    setUp(scenario.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(1)))).protocols(protocol);
  }
}
`;

/** A Gatling task of a new test on the agent's machine. */
const onTheAgent = (script: string, config: Record<string, unknown>): TaskOptions => ({ tool: 'gatling', script, config, machineIds: [fixture!.machineId] });

/** The JVM's processes: it gets -Dloadplane.taskId=<task id> on its command line. */
const jvmsOf = (taskId: string) => processesWith('cmdline', `-Dloadplane.taskId=${taskId}`);

describe('Gatling through the service and a real agent', () => {
  test('the agent found Gatling with its version; GET /machines shows it', async () => {
    if (!ready('the Gatling integration suite')) return;
    const { ts, token, agent, machineId } = fixture!;
    expect(agent.output()).toMatch(new RegExp(`\\n {2}gatling\\s+${gatlingVersion.replace(/\./g, '\\.')}\\n`));
    const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; tools: { tool: string; version: string | null }[] }[];
    expect(machines.find((m) => m.id === machineId)!.tools).toContainEqual({ tool: 'gatling', version: gatlingVersion });
  });

  test('a script that is no Gatling simulation: 400 naming what is missing', async () => {
    if (!ready('the Gatling validation test')) return;
    const { ts, token } = fixture!;
    // A script the plugin refuses is refused when saved.
    const noSetUp = 'import io.gatling.javaapi.core.*;\npublic class NoSetUp extends Simulation {}\n';
    await expectRefused(ts, token, onTheAgent(noSetUp, { vus: 1, duration: '1s' }), 'must call setUp(...)');
  });

  test('three stages: total_requests is the target\'s own count, p50 <= p95 <= p99 within the target\'s delay', async () => {
    if (!ready('the Gatling staged run')) return;
    const { ts, token, agent } = fixture!;
    const stages = [
      { duration: '2s', target: 3 },
      { duration: '2s', target: 3 },
      { duration: '1s', target: 6 },
    ];
    const { task, served: requests } = await runToEnd(ts, token, target, onTheAgent(simulation('/staged'), { stages }), () => agent.output().slice(-3000));
    expect(task.status, agent.output().slice(-3000)).toBe('completed');
    expect(requests).toBeGreaterThan(50);
    // Gatling measures from before the request is written to after the response: at least the target's delay.
    expectServedFigures(task, requests, minDelayMs);
    // The median stays near the delay; the margin absorbs a busy CI machine (no timing claim beyond that).
    expect(task.p50!).toBeLessThanOrEqual(maxDelayMs + 100);
    console.log(`gatling staged run: ${requests} requests, p50 ${task.p50} ms, p95 ${task.p95} ms, p99 ${task.p99} ms, ${task.requests_per_sec} req/s`);
  }, 120_000);

  test("the plugin README's simulation compiles and runs as written (only its base URL pointed at the target)", async () => {
    if (!ready('the Gatling README example')) return;
    const { ts, token, agent } = fixture!;
    const readme = readFileSync(join(repoRoot, 'plugins/load-tool-gatling/README.md'), 'utf8');
    const example = /```java\n([\s\S]*?)```/.exec(readme)![1]!.replace('https://shop.staging.example.test', target.url);
    const { task, served } = await runToEnd(ts, token, target, onTheAgent(example, { vus: 1, duration: '2s' }), () => agent.output().slice(-3000));
    expect(task.status, agent.output().slice(-3000)).toBe('completed');
    expect(served).toBeGreaterThan(0);
    expect(task.total_requests).toBe(served);
  }, 120_000);

  test('cancel mid-run: the task is cancelled and no JVM of it is left', async () => {
    if (!ready('the Gatling cancel test')) return;
    const { ts, token } = fixture!;
    const id = await startServing(ts, token, target, onTheAgent(simulation('/cancel'), { vus: 3, duration: '5m' }));
    await cancelLeavesNothing(ts, token, id, () => jvmsOf(id));
    // The target sees no more requests once the JVM is gone.
    const after = target.served;
    await Bun.sleep(500);
    expect(target.served).toBe(after);
  }, 120_000);
});
