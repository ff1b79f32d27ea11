/**
 * Real Artillery through the whole service and a real (sandboxed) agent against a loopback target with known delays:
 * stages as phases, the target's own count against total_requests, percentiles within the delays, a script that is not
 * Artillery's refused with 400, failed `ensure` checks, and a cancel that leaves no Artillery process behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { artilleryEngine } from '../../plugins/load-tool-artillery/engine.ts';
import { cancelLeavesNothing, expectServedFigures, processesOfTask, readTask, settle, startDelayTarget, startTask, taskLog, waitForEnd } from '../helpers/engine-runs.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const artillery = await locateEngineOnHost(artilleryEngine, { env: process.env });
const ready = (suite: string) => requireOrSkip(artillery.found ? null : artillery.reason, suite);
let fixture: ServiceWithAgent | null = null;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  if (!artillery.found) return;
  target = startDelayTarget();
  fixture = await startServiceWithAgent('artillery-user');
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

/** Each virtual user makes a 5 ms and a 15 ms request: every latency is at least 5 ms. */
const script = (url: string, extra = '') => `
config:
  target: "${url}"
  phases:
    - duration: 600
      arrivalRate: 1
${extra}
scenarios:
  - flow:
      - log: "vu started"
      - get:
          url: "/delay/5"
      - get:
          url: "/delay/15"
`;

describe('artillery through the service and an agent', () => {
  test('stages: total_requests is the target\'s own count; p50 <= p95 <= p99 within the delays', async () => {
    if (!ready('the Artillery run test')) return;
    const { ts, token } = fixture!;
    const before = target.served;
    // The config's stages replace the script's 600 s phase: arrivals ramp 0 -> 4/s, hold 6/s, ramp down to 2/s.
    const started = await startTask(ts, token, {
      tool: 'artillery',
      script: script(target.url),
      config: { stages: [{ duration: '2s', target: 4 }, { duration: '2s', target: 6 }, { duration: '1s', target: 2 }] },
    });
    expect('id' in started).toBe(true);
    const task = await waitForEnd(ts, token, (started as { id: string }).id);
    expect(task.status).toBe('completed');
    const served = target.served - before;
    expect(served).toBeGreaterThan(20);
    expectServedFigures(task, served, 4.5); // half a millisecond of slack for the target's timer
    // The slow request is 15 ms; whatever the machine's load, far below a second.
    expect(task.p95!).toBeGreaterThanOrEqual(14.5);
  }, 120_000);

  test('a script that is not an Artillery script: 400 naming the problem', async () => {
    if (!ready('the Artillery validation test')) return;
    const { ts, token } = fixture!;
    const noScenarios = await startTask(ts, token, { tool: 'artillery', script: `config:\n  target: "${target.url}"\n` });
    expect((noScenarios as Response).status).toBe(400);
    expect(((await (noScenarios as Response).json()) as { message: string }).message).toContain('needs scenarios');
    const notYaml = await startTask(ts, token, { tool: 'artillery', script: 'config: [unclosed\n' });
    expect((notYaml as Response).status).toBe(400);
    expect(((await (notYaml as Response).json()) as { message: string }).message).toContain('not valid YAML');
  }, 30_000);

  test('failed ensure checks end the run failed, naming the checks', async () => {
    if (!ready('the Artillery ensure test')) return;
    const { ts, token } = fixture!;
    // Artillery 2.0.21 runs `ensure` checks when the plugin is named under config.plugins.
    const ensure = '  plugins:\n    ensure:\n      thresholds:\n        - http.response_time.p95: 1\n';
    const started = await startTask(ts, token, { tool: 'artillery', script: script(target.url, ensure), config: { vus: 2, duration: '1s' } });
    const task = await waitForEnd(ts, token, (started as { id: string }).id);
    expect(task.status).toBe('failed');
    expect(task.total_requests!).toBeGreaterThan(0);
    const view = (await (await ts.request(`/api/v1/tasks/${task.id}`, { token })).json()) as Record<string, unknown>;
    expect(JSON.stringify(view)).toContain('ensure checks failed: http.response_time.p95 < 1');
  }, 120_000);

  test('cancel: the task ends cancelled and no Artillery process of it is left', async () => {
    if (!ready('the Artillery cancel test')) return;
    const { ts, token } = fixture!;
    const before = target.served;
    const started = (await startTask(ts, token, { tool: 'artillery', script: script(target.url), config: { vus: 5, duration: '60s' } })) as { id: string };
    await settle(() => target.served - before >= 30, 60_000, 50);
    expect(target.served - before).toBeGreaterThanOrEqual(30);
    // Log lines arrive while the run goes on (live, not at its end): the line is stored and the 60 s task still runs.
    await settle(async () => (await taskLog(ts, started.id)).includes('vu started'), 30_000);
    expect(await taskLog(ts, started.id)).toContain('vu started');
    expect((await readTask(ts, token, started.id)).status).toBe('running');
    await cancelLeavesNothing(ts, token, started.id, () => processesOfTask(started.id));
  }, 120_000);
});
