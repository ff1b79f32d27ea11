/**
 * Schedules fired by their job, with the schedules' clock in the test's hands: on embedded PGlite (in-process timers) a
 * due schedule starts its run within the sweep after its minute, and a stretch missed while the service was down runs
 * once at the next start; on PostgreSQL (Agenda) two replicas sweeping at once start each due run exactly once.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/process-probes.ts';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

type Json = Record<string, unknown>;
let clock = new Date('2026-11-26T12:00:30Z');
const boot = { schedules: { now: () => clock, sweepMillis: 100 } };
const running: TestService[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const service of running.splice(0).reverse()) await service.stop();
  for (const cleanup of cleanups) await cleanup();
});

async function start(options: Parameters<typeof startTestService>[0]): Promise<TestService> {
  const service = await startTestService(options);
  running.push(service);
  return service;
}

async function stop(service: TestService): Promise<void> {
  running.splice(running.indexOf(service), 1);
  await service.stop();
}

async function scheduleOf(ts: TestService, token: string, cron: string): Promise<{ testId: string; scheduleId: string }> {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `fired ${crypto.randomUUID()}`, tool: 'k6', script: 'export default function () {}' } });
  expect(created.status).toBe(201);
  const testId = String(((await created.json()) as Json).id);
  const schedule = await ts.request('/api/v1/schedules', { method: 'POST', token, json: { test_id: testId, cron } });
  expect(schedule.status, await schedule.clone().text()).toBe(201);
  return { testId, scheduleId: String(((await schedule.json()) as Json).id) };
}

/** The runs of the workspace started by schedules, as the database holds them. */
async function scheduledRuns(ts: TestService): Promise<{ id: string; schedule_id: string }[]> {
  return (await ts.service.database.fork().getConnection().execute(
    `select id, schedule_id from tasks where schedule_id is not null order by created_at`,
  )) as { id: string; schedule_id: string }[];
}

test('PGlite: a due schedule fires within its minute; a stretch missed while down fires once at the next start', async () => {
  clock = new Date('2026-11-26T12:00:30Z');
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-schedules-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const first = await start({ database: 'disk', dataDir, boot });
  const owner = await first.createUser('sched-fire');
  const { scheduleId } = await scheduleOf(first, owner, '* * * * *');
  // Not due yet: the job sweeps every 100 ms and starts nothing before 12:01.
  expect(await first.service.schedules.sweep()).toBe(0);

  clock = new Date('2026-11-26T12:01:01Z');
  await waitFor(async () => (await scheduledRuns(first)).length === 1, 30_000, 'the timer job to fire the schedule');
  const [run] = await scheduledRuns(first);
  expect(run!.schedule_id).toBe(scheduleId);
  const task = (await (await first.request(`/api/v1/tasks/${run!.id}`, { token: owner })).json()) as Json;
  expect(task).toMatchObject({ schedule_id: scheduleId, status: 'pending' });

  // Down from 12:01 to 12:30: 29 due minutes missed. The next start fires the schedule once, not 29 times.
  await stop(first);
  clock = new Date('2026-11-26T12:30:10Z');
  const second = await start({ database: 'disk', dataDir, boot });
  await waitFor(async () => (await scheduledRuns(second)).length === 2, 30_000, 'the missed run to fire at the next start');
  expect(await second.service.schedules.sweep()).toBe(0);
  expect((await scheduledRuns(second)).length).toBe(2);
  const token = await second.tokenFor('sched-fire');
  const schedule = (await (await second.request(`/api/v1/schedules/${scheduleId}`, { token })).json()) as Json;
  expect(schedule).toMatchObject({ next_run_at: '2026-11-26T12:31:00.000Z', last_run_at: '2026-11-26T12:30:10.000Z', last_task_id: (await scheduledRuns(second))[1]!.id });
}, 180_000);

test('PostgreSQL: two replicas (Agenda) fire each due schedule exactly once', async () => {
  const postgres = await postgresOrSkip();
  if (!postgres) return;
  cleanups.push(() => postgres.stop());
  clock = new Date('2026-11-26T12:00:30Z');
  const one = await start({ database: postgres.url, boot });
  const two = await start({ database: postgres.url, boot });
  const owner = await one.createUser('sched-replicas');
  const schedules = [];
  for (let i = 0; i < 8; i++) schedules.push((await scheduleOf(one, owner, '* * * * *')).scheduleId);

  // The jobs on Agenda fire them within the minute.
  clock = new Date('2026-11-26T12:01:00.500Z');
  await waitFor(async () => (await scheduledRuns(one)).length >= schedules.length, 60_000, 'the Agenda job to fire every schedule');

  // The next minute: both replicas sweep at once, several times over, while their jobs sweep too.
  clock = new Date('2026-11-26T12:02:00.500Z');
  const fired = await Promise.all([one, two, one, two, one, two].map((replica) => replica.service.schedules.sweep()));
  await waitFor(async () => (await scheduledRuns(two)).length >= 2 * schedules.length, 60_000, 'every schedule to fire at 12:02');
  expect(fired.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(schedules.length);
  expect(await one.service.schedules.sweep()).toBe(0);
  expect(await two.service.schedules.sweep()).toBe(0);
  const runs = await scheduledRuns(two);
  expect(runs.length).toBe(2 * schedules.length);
  for (const id of schedules) expect(runs.filter((r) => r.schedule_id === id).length, `runs of schedule ${id}`).toBe(2);
}, 240_000);
