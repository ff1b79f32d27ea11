/**
 * Real JMeter through the whole service (API -> dispatcher -> agent in its sandbox -> JMeter -> merged figures), against
 * a local target with a known delay: a staged run counted by the target, a plan that is not a plan refused with a 400,
 * a cancel that leaves no JMeter JVM behind, and two agents sharing one test whose merged p95 is the p95 of every raw
 * sample pooled (the raw samples: a JSR223 listener in the plan logs each sample's elapsed time).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { jmeterEngine } from '../../plugins/load-tool-jmeter/engine.ts';
import { httpPlan } from '../../plugins/load-tool-jmeter/http-plan.ts';
import { locateEngineOnHost } from '../../adapters/agent/engine-locator.ts';
import { cancelLeavesNothing, processesOfTask, rawPercentile, startAccepted, startSecondAgent, type Task, waitForEnd } from '../helpers/engine-runs.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
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
let second: Awaited<ReturnType<typeof startSecondAgent>> | null = null;
let ts: TestService;
let token: string;
const machineIds: Record<string, string> = {};

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
  second = await startSecondAgent(ts, fixture.jwt, 'jmeter-user-agent-2', 'agent-2');
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

const start = (script: string, config: Record<string, unknown>, machines: string[]) =>
  startAccepted(ts, token, { tool: 'jmeter', script, config, machineIds: machines.map((m) => machineIds[m]!) });

const finished = (id: string) => waitForEnd(ts, token, id);

async function logOf(id: string): Promise<string[]> {
  const stored = await readSse(await fetch(`${ts.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}` } }));
  return stored.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
}

/** JMeter JVMs of one task, seen from outside the sandbox: its processes running JMeter's launcher jar. */
function jmeterJvmsOf(taskId: string): number[] {
  return processesOfTask(taskId).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ApacheJMeter.jar');
    } catch {
      return false; // gone meanwhile
    }
  });
}

function expectPercentilesWithinDelay(task: Task) {
  expect(task.p50!).toBeGreaterThanOrEqual(minDelayMs);
  expect(task.p95!).toBeGreaterThanOrEqual(task.p50!);
  expect(task.p99!).toBeGreaterThanOrEqual(task.p95!);
  // Above the target's longest delay only by what JMeter and a busy machine add: plausible, not timed. Ten seconds is
  // room for a loaded machine; a unit slip (µs read as ms, ×1000) is still caught.
  expect(task.p99!).toBeLessThan(maxDelayMs + 10_000);
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
    expect(jmeterJvmsOf(id).length).toBe(1);
    await cancelLeavesNothing(ts, token, id, () => jmeterJvmsOf(id));
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

    const nearestRank = (percent: number) => rawPercentile(raw, percent);
    for (const [percent, merged] of [[50, task.p50!], [95, task.p95!], [99, task.p99!]] as const) {
      const pooled = nearestRank(percent);
      // The histogram keeps about three significant digits: a bucket's upper edge is at most 1/1024 above the value.
      expect(merged).toBeGreaterThanOrEqual(pooled - 0.001);
      expect(merged).toBeLessThanOrEqual(pooled * (1 + 1 / 1024) + 0.001);
    }
    console.log(`jmeter on 2 agents: ${requests} requests, merged p95 ${task.p95} ms, pooled raw p95 ${nearestRank(95)} ms`);
  }, 120_000);
});
