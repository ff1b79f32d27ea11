/**
 * A run's change counter moves with every interval stored through storeMetricInterval (also when a run's machines store
 * at once), so an answer kept by it is dropped by the next interval; a run without points has none; a deleted run's goes
 * with it. On the service's database (PGlite, or PostgreSQL under DATABASE_URL).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { createMetricRun, type MetricRun } from '../../../tests/helpers/metric-points.ts';
import { seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { sqlOf } from '../sql.ts';
import { runPointsVersion } from './metric-changes.ts';
import { storeMetricInterval } from './store-metric-interval.ts';

let ts: TestService;
let token: string;
beforeAll(async () => {
  ts = await startTestService();
  token = await ts.createUser('metric-changes');
});
afterAll(() => ts.stop());

function interval(at: number, latencies: number[]) {
  const histogram = new LatencyHistogram();
  for (const ms of latencies) histogram.record(ms);
  return { histogram: histogram.encode(), requests: latencies.length, errors: 0, startedAt: at - 1000, endedAt: at };
}

const store = (run: MetricRun, machineId: string, at: number) =>
  storeMetricInterval(ts.service.database, { workspaceId: run.workspaceId, taskId: run.taskId, testId: run.testId, machineId }, interval(at, [5, 7, 9]));

test('every stored interval moves its run counter, concurrent ones included; other runs keep theirs', async () => {
  const sql = sqlOf(ts.service.database);
  const one = await createMetricRun(ts, token, 'changes one');
  const other = await createMetricRun(ts, token, 'changes other');
  expect(await runPointsVersion(sql, [one.taskId])).toBe(`${one.taskId}=-`);
  const random = seededRandom(7);
  const machines = Array.from({ length: 4 }, (_, i) => `00000000-0000-4000-8000-0000000000d${i}`);
  let stored = 0;
  const seen = new Set<string>([await runPointsVersion(sql, [one.taskId, other.taskId])]);
  const start = Date.now() - 60_000;
  for (let second = 0; second < 6; second++) {
    // Some of the machines store this second's interval at once (as an agent session does, each on its own).
    const senders = machines.filter(() => random.chance(0.7));
    await Promise.all(senders.map((machine) => store(one, machine, start + second * 1000)));
    stored += senders.length;
    const version = await runPointsVersion(sql, [one.taskId, other.taskId]);
    if (senders.length > 0) expect(seen.has(version)).toBe(false);
    seen.add(version);
  }
  expect(await runPointsVersion(sql, [one.taskId])).toBe(`${one.taskId}=${stored}`);
  expect(await runPointsVersion(sql, [other.taskId])).toBe(`${other.taskId}=-`);
  // The order and repeats of the runs named do not matter.
  expect(await runPointsVersion(sql, [other.taskId, one.taskId, one.taskId])).toBe(await runPointsVersion(sql, [one.taskId, other.taskId]));
  await sql.all('delete from tasks where id = ?', [one.taskId]);
  expect(await runPointsVersion(sql, [one.taskId])).toBe(`${one.taskId}=-`);
});
