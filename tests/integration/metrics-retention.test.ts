/**
 * Retention of run time series by plan: the service schedules the job metrics:retention on its job queue, and a run of
 * that job deletes, per workspace, the points older than its plan keeps (starter 7 days, scale 30, enterprise 90), as
 * GET /metrics/query then shows. The job is invoked through the queue's own handler, as the queue would.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { planLimits } from '../../core/domain/plans.ts';
import { createTimerJobQueue, type JobQueue } from '../../core/ports/job-queue.ts';
import { metricsRetentionEveryMillis, metricsRetentionJob } from '../../core/services/metrics/metrics-retention.ts';
import { createMetricRun, insertPoints } from '../helpers/metric-points.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

/** The timer queue, with what was scheduled and a way to run a job's handler now and wait for it. */
function recordingQueue() {
  const inner = createTimerJobQueue();
  const handlers = new Map<string, () => Promise<void>>();
  const schedules = new Map<string, number>();
  const queue: JobQueue & { run(name: string): Promise<void> } = {
    ...inner,
    define(name, handler) {
      handlers.set(name, handler);
      inner.define(name, handler);
    },
    async every(name, millis) {
      schedules.set(name, millis);
      await inner.every(name, millis);
    },
    run: (name) => handlers.get(name)!(),
  };
  return { queue, schedules };
}

let ts: TestService;
const recorded = recordingQueue();
const day = 86_400;
const now = Math.floor(Date.now() / 1000);
const ages = [3, 10, 40, 100];
const machine = '00000000-0000-4000-8000-0000000000c1';

beforeAll(async () => {
  ts = await startTestService({ boot: { jobQueue: async () => recorded.queue } });
});
afterAll(() => ts.stop());

async function workspaceOnPlan(plan: string) {
  const token = await ts.createUser(`retention-${plan}`);
  const patched = await ts.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan } });
  expect(patched.status).toBe(200);
  const run = await createMetricRun(ts, token, `retention ${plan}`);
  await insertPoints(ts, run, ages.map((age) => ({ machineId: machine, t: now - age * day, latencies: [5, 6, 7] })));
  return { token, run: run.taskId };
}

/**
 * The ages (in days) of the points the workspace still has, read through the query API: of all its runs, and of its run
 * by name (an answer kept by the run's change counter, which a prune moves); both must agree.
 */
async function agesKept({ token, run }: { token: string; run: string }) {
  const ages = async (filter: string) => {
    const response = await ts.request(`/api/v1/metrics/query?metric=requests&start=${now - 120 * day}&end=${now}&step=1d&by=${filter}`, { token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { series: { points: [number, number][] }[] };
    return (body.series[0]?.points ?? []).map(([t]) => Math.round((now - t) / day));
  };
  const all = await ages('');
  expect(await ages(`&run=${run}`)).toEqual(all);
  return all;
}

describe('metrics retention', () => {
  test('the job is scheduled on the job queue, hourly', () => {
    expect(recorded.schedules.get(metricsRetentionJob)).toBe(metricsRetentionEveryMillis);
    expect(metricsRetentionEveryMillis).toBe(3_600_000);
  });

  test('a run of the job keeps each workspace its plan retention; running it again changes nothing', async () => {
    expect(planLimits.starter.metricsRetentionDays).toBe(7);
    expect(planLimits.scale.metricsRetentionDays).toBe(30);
    expect(planLimits.enterprise.metricsRetentionDays).toBe(90);
    const starter = await workspaceOnPlan('starter');
    const scale = await workspaceOnPlan('scale');
    const enterprise = await workspaceOnPlan('enterprise');
    // Steps end on day boundaries after the point: an age of 3 days reads as 3 or 2.
    const before = await agesKept(enterprise);
    expect(before).toHaveLength(4);

    await recorded.queue.run(metricsRetentionJob);
    expect(await agesKept(starter)).toHaveLength(1);
    expect(await agesKept(scale)).toHaveLength(2);
    expect(await agesKept(enterprise)).toHaveLength(3);
    expect((await agesKept(enterprise))[0]).toBeGreaterThanOrEqual(39);

    await recorded.queue.run(metricsRetentionJob);
    expect(await agesKept(starter)).toHaveLength(1);
    expect(await agesKept(scale)).toHaveLength(2);
    expect(await agesKept(enterprise)).toHaveLength(3);
  });
});
