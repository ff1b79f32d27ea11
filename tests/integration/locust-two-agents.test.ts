/**
 * Two agents run one Locust test together (machine count 2), each with a different latency (machine 0 asks for 5 ms,
 * machine 1 for 40 ms): the merged p95 equals the p95 of every raw sample pooled, within the histogram's precision. The
 * locustfile prints each request's response time (Locust's own measurement, the one our hook records) as a log line.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { locateEngineOnHost, requireOrSkip } from 'loadplane/plugin/testing';
import { locustEngine } from '../../plugins/load-tool-locust/engine.ts';
import { rawPercentile, startDelayTarget, startSecondAgent, startTask, taskLog, waitForEnd } from '../helpers/engine-runs.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const locust = await locateEngineOnHost(locustEngine, { env: process.env });
let fixture: ServiceWithAgent | null = null;
let second: Awaited<ReturnType<typeof startSecondAgent>> | null = null;
let target: ReturnType<typeof startDelayTarget>;

beforeAll(async () => {
  if (!locust.found) return;
  target = startDelayTarget();
  fixture = await startServiceWithAgent('locust-pair');
  second = await startSecondAgent(fixture.ts, fixture.jwt, 'locust-pair-second');
}, 90_000);

afterAll(async () => {
  await second?.shutdown();
  await fixture?.stop();
  target?.stop();
});

const locustfile = (url: string) => `
import os

from locust import HttpUser, constant, events, task

MACHINE = int(os.environ["LOADPLANE_MACHINE_INDEX"])


@events.request.add_listener
def raw(response_time, **kwargs):
    print(f"raw-sample {MACHINE} {response_time!r}")


class Visitor(HttpUser):
    host = "${url}"
    wait_time = constant(0.01)

    @task
    def one(self):
        self.client.get("/delay/5" if MACHINE == 0 else "/delay/40")
`;

test('two agents, one Locust test: the merged p95 is the pooled raw p95', async () => {
  if (!requireOrSkip(locust.found ? null : locust.reason, 'the two-agent Locust test')) return;
  const { ts, token } = fixture!;
  const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; status: string }[];
  expect(machines.length).toBe(2);
  const before = target.served;
  const started = (await startTask(ts, token, {
    tool: 'locust',
    script: locustfile(target.url),
    config: { vus: 4, duration: '3s' },
    machineIds: machines.map((m) => m.id),
  })) as { id: string };
  expect(started.id).toBeDefined();
  const task = await waitForEnd(ts, token, started.id);
  expect(task.status).toBe('completed');

  const samples: number[][] = [[], []];
  for (const line of await taskLog(ts, task.id)) {
    const match = /^raw-sample (\d) (\S+)$/.exec(line);
    if (match) samples[Number(match[1])]!.push(Number(match[2]));
  }
  // Both machines ran their share; every request is in the log, in the task and at the target.
  expect(samples[0]!.length).toBeGreaterThan(10);
  expect(samples[1]!.length).toBeGreaterThan(10);
  const pooled = [...samples[0]!, ...samples[1]!];
  expect(pooled.length).toBe(task.total_requests!);
  expect(target.served - before).toBe(task.total_requests!);

  for (const percent of [50, 95, 99] as const) {
    const raw = rawPercentile(pooled, percent);
    const merged = task[`p${percent}`]!;
    // Buckets are 1/1024 of their value wide (above 2.048 ms); figures are rounded to the microsecond.
    expect(Math.abs(merged - raw)).toBeLessThanOrEqual(raw / 1024 + 0.0015);
  }
  const averaged = (rawPercentile(samples[0]!, 95) + rawPercentile(samples[1]!, 95)) / 2;
  console.log(
    `two Locust agents: ${pooled.length} requests (${samples[0]!.length} + ${samples[1]!.length}); p95 merged ${task.p95} ms, ` +
      `pooled raw ${rawPercentile(pooled, 95).toFixed(3)} ms, average of the machines' p95s ${averaged.toFixed(3)} ms`,
  );
}, 120_000);
