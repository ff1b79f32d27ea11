/**
 * Real Artillery through the whole service and a real (sandboxed) agent against a loopback target with known delays:
 * stages as phases, the target's own count against total_requests, percentiles within the delays, a script that is not
 * Artillery's refused with 400, failed `ensure` checks, and a cancel that leaves no Artillery process behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { artilleryEngine } from '../../plugins/load-tool-artillery/engine.ts';
import {
  cancelLeavesNothing,
  expectFailedRun,
  expectLiveLog,
  expectRefused,
  expectServedFigures,
  processesOfTask,
  runToEnd,
  startDelayTarget,
  startServing,
} from '../helpers/engine-runs.ts';
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
    // The config's stages replace the script's 600 s phase: arrivals ramp 0 -> 4/s, hold 6/s, ramp down to 2/s.
    const { task, served } = await runToEnd(ts, token, target, {
      tool: 'artillery',
      script: script(target.url),
      config: { stages: [{ duration: '2s', target: 4 }, { duration: '2s', target: 6 }, { duration: '1s', target: 2 }] },
    });
    expect(task.status).toBe('completed');
    expect(served).toBeGreaterThan(20);
    expectServedFigures(task, served, 4.5); // half a millisecond of slack for the target's timer
    // The slow request is 15 ms; whatever the machine's load, far below a second.
    expect(task.p95!).toBeGreaterThanOrEqual(14.5);
  }, 120_000);

  test('a script that is not an Artillery script: 400 naming the problem', async () => {
    if (!ready('the Artillery validation test')) return;
    const { ts, token } = fixture!;
    await expectRefused(ts, token, { tool: 'artillery', script: `config:\n  target: "${target.url}"\n` }, 'needs scenarios');
    await expectRefused(ts, token, { tool: 'artillery', script: 'config: [unclosed\n' }, 'not valid YAML');
  }, 30_000);

  test('failed ensure checks end the run failed, naming the checks', async () => {
    if (!ready('the Artillery ensure test')) return;
    const { ts, token } = fixture!;
    // Artillery 2.0.21 runs `ensure` checks when the plugin is named under config.plugins.
    const ensure = '  plugins:\n    ensure:\n      thresholds:\n        - http.response_time.p95: 1\n';
    const { task } = await runToEnd(ts, token, target, { tool: 'artillery', script: script(target.url, ensure), config: { vus: 2, duration: '1s' } });
    await expectFailedRun(ts, token, task, 'ensure checks failed: http.response_time.p95 < 1');
  }, 120_000);

  test('cancel: the task ends cancelled and no Artillery process of it is left', async () => {
    if (!ready('the Artillery cancel test')) return;
    const { ts, token } = fixture!;
    const id = await startServing(ts, token, target, { tool: 'artillery', script: script(target.url), config: { vus: 5, duration: '60s' } });
    await expectLiveLog(ts, token, id, 'vu started');
    await cancelLeavesNothing(ts, token, id, () => processesOfTask(id));
  }, 120_000);
});
