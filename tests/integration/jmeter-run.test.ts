/**
 * Real JMeter through the whole service (API -> dispatcher -> agent in its sandbox -> JMeter -> merged figures), against
 * a local target with a known delay: a staged run counted by the target, a plan that is not a plan refused with a 400,
 * a cancel that leaves no JMeter JVM behind, and two agents sharing one test whose merged p95 is the p95 of every raw
 * sample pooled (the raw samples: a JSR223 listener in the plan logs each sample's elapsed time).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, readdirSync } from 'node:fs';
import { jmeterEngine } from '../../plugins/load-tool-jmeter/engine.ts';
import { httpPlan } from '../../plugins/load-tool-jmeter/http-plan.ts';
import { startNodeAgent } from '../../adapters/agent/start-node-agent.ts';
import { loadToolPluginsOf } from '../../adapters/composition/plugins.ts';
import { locateEngineOnHost } from '../../adapters/agent/engine-locator.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { processAlive } from '../helpers/process-probes.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { readSse } from '../helpers/stream-clients.ts';
import type { TestService } from '../helpers/test-service.ts';

const jmeter = await locateEngineOnHost(jmeterEngine, { env: process.env });
const ready = (suite: string) => requireOrSkip(jmeter.found ? null : jmeter.reason, suite);

/** The target's delay: every request sleeps 5 to 24 ms (the n-th request n % 20 + 5), so percentiles lie in there. */
const minDelayMs = 5;
const maxDelayMs = 24;
let target: ReturnType<typeof Bun.serve>;
let served = 0;

let fixture: ServiceWithAgent | null = null;
let second: Awaited<ReturnType<typeof startNodeAgent>> | null = null;
let ts: TestService;
let token: string;
const machineIds: Record<string, string> = {};

interface Task {
  id: string;
  status: string;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  error_rate: number | null;
  total_requests: number | null;
  error_message?: string | null;
}

beforeAll(async () => {
  if (!jmeter.found) return;
  target = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch() {
      const n = served++;
      await Bun.sleep(minDelayMs + (n % (maxDelayMs - minDelayMs + 1)));
      return new Response('ok');
    },
  });
  fixture = await startServiceWithAgent('jmeter-user', { env: { MAX_LOG_LINES_PER_RUN: '100000' } });
  ({ ts, token } = fixture);
  // A second load generator for the same workspace.
  const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: fixture.jwt, json: { name: 'agent-2', scopes: ['machines:write', 'runs:write'] } });
  second = await startNodeAgent({
    serverUrl: ts.url,
    token: ((await created.json()) as { token: string }).token,
    logger: silentLogger,
    plugins: loadToolPluginsOf(ts.service),
    system: { hostname: 'jmeter-user-agent-2' },
  });
  await second.ready;
  const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; hostname: string; tools: { tool: string; version: string | null }[] }[];
  for (const machine of machines) {
    machineIds[machine.hostname] = machine.id;
    expect(machine.tools).toContainEqual({ tool: 'jmeter', version: jmeter.found ? jmeter.version : null });
  }
}, 120_000);

afterAll(async () => {
  await second?.shutdown();
  await fixture?.stop();
  target?.stop(true);
});

const url = (path: string) => `http://127.0.0.1:${target.port}${path}`;

async function start(script: string, config: Record<string, unknown> | null, machines: string[]): Promise<string> {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'jmeter run', tool: 'jmeter', script } });
  expect(created.status).toBe(201);
  const { id: testId } = (await created.json()) as { id: string };
  let configId: string | undefined;
  if (config) {
    const saved = await ts.request('/api/v1/configs', { method: 'POST', token, json: { name: 'jmeter config', ...config } });
    expect(saved.status).toBe(201);
    configId = ((await saved.json()) as { id: string }).id;
  }
  const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, machineIds: machines.map((m) => machineIds[m]!), ...(configId ? { configId } : {}) } });
  expect(started.status, await started.clone().text()).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

async function finished(id: string, timeoutMs = 90_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const task = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as Task;
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await Bun.sleep(200);
  }
  throw new Error(`task ${id} did not finish`);
}

async function logOf(id: string): Promise<string[]> {
  const stored = await readSse(await fetch(`${ts.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}` } }));
  return stored.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
}

/** JMeter JVMs of one task, seen from outside the sandbox: java processes whose environment names the task. */
function jmeterJvmsOf(taskId: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('ApacheJMeter.jar')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`LOADPLANE_TASK_ID=${taskId}`)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function expectPercentilesWithinDelay(task: Task) {
  expect(task.p50!).toBeGreaterThanOrEqual(minDelayMs);
  expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
  expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
  // Above the target's longest delay only by what JMeter and a busy machine add; bounded, not timed.
  expect(task.p99!).toBeLessThan(maxDelayMs + 1000);
}

describe('JMeter through the service and a real agent', () => {
  test('a staged load (up, hold, down): total_requests is the target\'s own count; p50 <= p95 <= p99 within the delay', async () => {
    if (!ready('the JMeter integration test')) return;
    const before = served;
    const plan = httpPlan({ url: url('/staged') });
    const id = await start(plan, { stages: [{ duration: '2s', target: 3 }, { duration: '2s', target: 3 }, { duration: '2s', target: 0 }] }, ['jmeter-user-agent']);
    const task = await finished(id);
    const log = await logOf(id);
    expect(task.status, log.slice(-20).join('\n')).toBe('completed');
    const requests = served - before;
    expect(requests).toBeGreaterThan(20);
    expect(task.total_requests).toBe(requests);
    expect(task.error_rate).toBe(0);
    expectPercentilesWithinDelay(task);
    // JMeter's own log is the task's log, live; the agent's JMeter counted in the JVM (Loadplane's listener), and its
    // metric lines are not in the log.
    expect(log.some((line) => line.includes('end of run'))).toBe(true);
    expect(log.some((line) => line.includes('INFO LoadplaneMetrics: Loadplane metrics: each sample'))).toBe(true);
    expect(log.some((line) => line.startsWith('@loadplane-metrics') || /^\d{13},\d+,(true|false)$/.test(line))).toBe(false);
    // The three stages became thread groups started and stopped on schedule.
    expect(log.some((line) => line.includes('[step 1/'))).toBe(true);
    const points: { requests: number }[] = await ts.service.database.fork().getConnection().execute('select requests from task_metric_points where task_id = ?', [id]);
    expect(points.reduce((sum, p) => sum + Number(p.requests), 0)).toBe(requests);
  }, 120_000);

  test('a .jmx that is not a JMeter plan: saving it answers 400 with what is wrong', async () => {
    if (!ready('the JMeter validation test')) return;
    for (const [script, message] of [
      ['{"url": "http://127.0.0.1/"}', 'not XML'],
      ['<jmeterTestPlan><hashTree><TestPlan/></jmeterTestPlan>', 'not well-formed XML'],
      ['<project><hashTree/></project>', 'root element is <jmeterTestPlan>'],
      ['<jmeterTestPlan version="1.2"><hashTree><TestPlan testclass="TestPlan"/><hashTree/></hashTree></jmeterTestPlan>', 'no enabled thread group'],
    ] as const) {
      const refused = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'bad plan', tool: 'jmeter', script } });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: string; message: string };
      expect(body.error).toBe('bad_request');
      expect(body.message).toContain(message);
    }
  });

  test('cancel mid-run: the task ends cancelled and no JMeter JVM of it is left', async () => {
    if (!ready('the JMeter cancel test')) return;
    const before = served;
    const id = await start(httpPlan({ url: url('/cancel') }), { vus: 2, duration: '2m' }, ['jmeter-user-agent']);
    const deadline = Date.now() + 60_000;
    while (served - before < 30 && Date.now() < deadline) await Bun.sleep(100);
    expect(served - before).toBeGreaterThanOrEqual(30);
    const jvms = jmeterJvmsOf(id);
    expect(jvms.length).toBe(1);
    expect((await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token })).status).toBe(204);
    const task = await finished(id, 30_000);
    expect(task.status).toBe('cancelled');
    const gone = Date.now() + 15_000;
    while (jvms.some(processAlive) && Date.now() < gone) await Bun.sleep(100);
    expect(jvms.filter(processAlive)).toEqual([]);
    expect(jmeterJvmsOf(id)).toEqual([]);
  }, 120_000);

  test('two agents run one test: the merged p95 is the p95 of every raw sample pooled, within histogram precision', async () => {
    if (!ready('the JMeter two-agent test')) return;
    const before = served;
    // Each sample's elapsed time, as JMeter measured it, logged by the plan itself: the raw samples to pool.
    const rawListener = `
        <JSR223Listener guiclass="TestBeanGUI" testclass="JSR223Listener" testname="raw">
          <stringProp name="scriptLanguage">groovy</stringProp>
          <stringProp name="script">log.info("raw-sample " + prev.getTime())</stringProp>
          <stringProp name="cacheKey">true</stringProp>
        </JSR223Listener>
        <hashTree/>`;
    const plan = httpPlan({ url: url('/pooled'), extra: rawListener });
    const id = await start(plan, { vus: 4, duration: '4s' }, ['jmeter-user-agent', 'jmeter-user-agent-2']);
    const task = await finished(id);
    const log = await logOf(id);
    expect(task.status, log.slice(-20).join('\n')).toBe('completed');
    const raw = log.flatMap((line) => {
      const match = /raw-sample (\d+)$/.exec(line);
      return match ? [Number(match[1])] : [];
    });
    const requests = served - before;
    expect(task.total_requests).toBe(requests);
    expect(raw.length).toBe(requests);
    expectPercentilesWithinDelay(task);
    // Both machines ran their share: each JMeter logged its own "end of run".
    expect(log.filter((line) => line.includes('end of run')).length).toBe(2);

    const sorted = raw.sort((a, b) => a - b);
    const nearestRank = (percent: number) => sorted[Math.max(1, Math.ceil((percent / 100) * sorted.length)) - 1]!;
    for (const [percent, merged] of [[50, task.p50!], [95, task.p95!], [99, task.p99!]] as const) {
      const pooled = nearestRank(percent);
      // The histogram keeps about three significant digits: a bucket's upper edge is at most 1/1024 above the value.
      expect(merged).toBeGreaterThanOrEqual(pooled - 0.001);
      expect(merged).toBeLessThanOrEqual(pooled * (1 + 1 / 1024) + 0.001);
    }
    console.log(`jmeter on 2 agents: ${requests} requests, merged p95 ${task.p95} ms, pooled raw p95 ${nearestRank(95)} ms`);
  }, 120_000);
});
