/**
 * Real Locust through the whole service and a real (sandboxed) agent against a loopback target with known delays:
 * stages, the target's own count against total_requests, percentiles within the delays, a locustfile with a syntax
 * error refused with 400, a failing exit code, and a cancel that leaves no Locust process behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { locustEngine } from '../../plugins/load-tool-locust/engine.ts';
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

const locust = await locateEngineOnHost(locustEngine, { env: process.env });
const ready = (suite: string) => requireOrSkip(locust.found ? null : locust.reason, suite);
let fixture: ServiceWithAgent | null = null;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  if (!locust.found) return;
  target = startDelayTarget();
  fixture = await startServiceWithAgent('locust-user');
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  target?.stop();
});

/** Each user alternates a 5 ms and a 15 ms request: every latency is at least 5 ms. */
const locustfile = (url: string, extra = '') => `
from locust import HttpUser, constant, task


class Visitor(HttpUser):
    host = "${url}"
    wait_time = constant(0.02)

    def on_start(self):
        print("user started")

    @task
    def both(self):
        self.client.get("/delay/5")
        self.client.get("/delay/15")
${extra}`;

describe('locust through the service and an agent', () => {
  test('stages: total_requests is the target\'s own count; p50 <= p95 <= p99 within the delays', async () => {
    if (!ready('the Locust run test')) return;
    const { ts, token } = fixture!;
    const { task, served } = await runToEnd(ts, token, target, {
      tool: 'locust',
      script: locustfile(target.url),
      config: { stages: [{ duration: '1s', target: 2 }, { duration: '2s', target: 4 }, { duration: '1s', target: 1 }] },
    });
    expect(task.status).toBe('completed');
    expect(served).toBeGreaterThan(20);
    expectServedFigures(task, served, 4.5); // half a millisecond of slack for the target's timer
    // The slow request is 15 ms; whatever the machine's load, far below a second.
    expect(task.p95!).toBeGreaterThanOrEqual(14.5);
  }, 120_000);

  test('a locustfile with a syntax error or without a User class: 400 naming the problem', async () => {
    if (!ready('the Locust validation test')) return;
    const { ts, token } = fixture!;
    const broken = 'from locust import HttpUser, task\n\nclass V(HttpUser):\n    @task\n    def go(self)\n        pass\n';
    await expectRefused(ts, token, { tool: 'locust', script: broken }, "line 5: expected ':' after the def statement");
    await expectRefused(ts, token, { tool: 'locust', script: 'from locust import task\n\nprint("hi")\n' }, 'must define a User class');
  }, 30_000);

  test('a locustfile that fails its own check (environment.process_exit_code) ends failed with the reason', async () => {
    if (!ready('the Locust failing-check test')) return;
    const { ts, token } = fixture!;
    const check = `
import logging
from locust import events


@events.quitting.add_listener
def check(environment, **kwargs):
    if environment.stats.total.avg_response_time > 1:
        logging.error("average response time above 1 ms")
        environment.process_exit_code = 3
`;
    const { task } = await runToEnd(ts, token, target, { tool: 'locust', script: locustfile(target.url, check), config: { vus: 2, duration: '1s' } });
    await expectFailedRun(ts, token, task, 'average response time above 1 ms');
  }, 120_000);

  test('cancel: the task ends cancelled and no Locust process of it is left', async () => {
    if (!ready('the Locust cancel test')) return;
    const { ts, token } = fixture!;
    const id = await startServing(ts, token, target, { tool: 'locust', script: locustfile(target.url), config: { vus: 3, duration: '60s' } });
    await expectLiveLog(ts, token, id, 'user started');
    await cancelLeavesNothing(ts, token, id, () => processesOfTask(id));
  }, 120_000);
});
