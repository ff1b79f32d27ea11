/**
 * /schedules through the REST API on PGlite, with the schedules' clock in the test's hands (the sweep job is an hour
 * away; the tests call the sweep): CRUD, validation naming the field, tenants, scopes, the plan limit, and firing: a run
 * with schedule_id once per due time, a missed stretch once, a disabled schedule never, a deleted test's schedules gone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let counter = 0;
let clock = new Date('2026-11-26T12:00:30Z');
const fresh = () => ts.createUser(`scheduser${++counter}`);

type Json = Record<string, unknown>;
const json = async (response: Response) => (await response.json()) as Json;
const post = (token: string, path: string, body: unknown) => ts.request(`/api/v1${path}`, { method: 'POST', token, json: body });
const patch = (token: string, id: string, body: unknown) => ts.request(`/api/v1/schedules/${id}`, { method: 'PATCH', token, json: body });
const get = (token: string, path: string) => ts.request(`/api/v1${path}`, { token });

async function newTest(token: string, name = 'scheduled'): Promise<string> {
  const response = await post(token, '/tests', { name, tool: 'k6', script: 'export default function () {}' });
  expect(response.status).toBe(201);
  return String((await json(response)).id);
}

async function newSchedule(token: string, body: Json): Promise<Json> {
  const response = await post(token, '/schedules', body);
  expect(response.status, await response.clone().text()).toBe(201);
  return json(response);
}

/** The workspace's runs started by this schedule, newest first. */
async function runsOf(token: string, scheduleId: string): Promise<Json[]> {
  const tasks = (await (await get(token, '/tasks?limit=1000')).json()) as Json[];
  return tasks.filter((task) => task.schedule_id === scheduleId);
}

beforeAll(async () => {
  ts = await startTestService({ boot: { schedules: { now: () => clock, sweepMillis: 3_600_000 } } });
});
afterAll(() => ts.stop());

describe('schedules: happy path', () => {
  test('created with the contract fields, read, listed and paged, changed, deleted; every change audited', async () => {
    clock = new Date('2026-11-26T12:00:30Z');
    const owner = await fresh();
    const testId = await newTest(owner);
    const created = await newSchedule(owner, { test_id: testId, cron: ' 0  9 * * mon-fri ' });
    expect(created).toMatchObject({
      test_id: testId,
      cron: '0 9 * * mon-fri',
      timezone: 'UTC',
      config_id: null,
      machine_ids: [],
      enabled: true,
      // 2026-11-26 is a Thursday: the next 09:00 is Friday's.
      next_run_at: '2026-11-27T09:00:00.000Z',
      last_task_id: null,
      last_error: null,
    });
    expect(typeof created.created_at).toBe('string');
    const berlin = await newSchedule(owner, { test_id: testId, cron: '30 2 28 3 *', timezone: 'Europe/Berlin', enabled: false });
    expect(berlin).toMatchObject({ timezone: 'Europe/Berlin', enabled: false, next_run_at: null });

    expect(await json(await get(owner, `/schedules/${created.id}`))).toEqual(created);
    const first = await get(owner, '/schedules?limit=1');
    expect(((await first.json()) as Json[]).map((s) => s.id)).toEqual([berlin.id]);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = (await (await get(owner, `/schedules?limit=1&cursor=${cursor}`)).json()) as Json[];
    expect(second.map((s) => s.id)).toEqual([created.id]);

    // Enabled: the skipped 02:30 of 2027-03-28 in Berlin (spring forward) runs when the clock jumps, 01:00 UTC.
    const enabled = await patch(owner, String(berlin.id), { enabled: true });
    expect(enabled.status).toBe(200);
    expect(await json(enabled)).toMatchObject({ enabled: true, next_run_at: '2027-03-28T01:00:00.000Z' });
    const changed = await json(await patch(owner, String(created.id), { cron: '*/5 * * * *', timezone: 'America/New_York' }));
    expect(changed).toMatchObject({ cron: '*/5 * * * *', timezone: 'America/New_York', next_run_at: '2026-11-26T12:05:00.000Z' });
    expect(await json(await patch(owner, String(created.id), { enabled: false }))).toMatchObject({ enabled: false, next_run_at: null });

    expect((await ts.request(`/api/v1/schedules/${created.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await get(owner, `/schedules/${created.id}`)).status).toBe(404);
    const audit = (await (await get(owner, '/audit-log?limit=20')).json()) as { action: string }[];
    expect(audit.filter((e) => e.action.startsWith('schedule.')).map((e) => e.action)).toEqual([
      'schedule.deleted',
      'schedule.updated',
      'schedule.updated',
      'schedule.updated',
      'schedule.created',
      'schedule.created',
    ]);
  });
});

describe('schedules: errors', () => {
  test('a bad cron, time zone or body is a 400 naming the field', async () => {
    const owner = await fresh();
    const testId = await newTest(owner);
    const cases: [Json, RegExp][] = [
      [{ test_id: testId, cron: '* * * *' }, /^cron is not a valid 5-field expression: .*got 4$/],
      [{ test_id: testId, cron: '61 * * * *' }, /^cron .*minute: 61 is outside 0-59/],
      [{ test_id: testId, cron: '0 0 31 2 *' }, /^cron .*no month of the expression has such a day/],
      [{ test_id: testId, cron: '* * * * *', timezone: 'Mars/Olympus' }, /^timezone "Mars\/Olympus" is not an IANA time zone/],
      [{ test_id: testId }, /cron/],
      [{ cron: '* * * * *' }, /test_id/],
      [{ test_id: testId, cron: '* * * * *', enabled: 'yes' }, /enabled/],
      [{ test_id: testId, cron: '* * * * *', extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const response = await post(owner, '/schedules', body);
      const answer = await json(response);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer).sort()).toEqual(['error', 'message']);
      expect(String(answer.message), JSON.stringify(body)).toMatch(message);
    }
    const schedule = await newSchedule(owner, { test_id: testId, cron: '* * * * *' });
    const empty = await patch(owner, String(schedule.id), {});
    expect(empty.status).toBe(400);
    expect(String((await json(empty)).message)).toMatch(/^nothing to change/);
    const badZone = await patch(owner, String(schedule.id), { timezone: 'Nowhere/Land' });
    expect(badZone.status).toBe(400);
    expect(String((await json(badZone)).message)).toMatch(/^timezone/);
  });

  test("another workspace's test, config, machine or schedule is the plain 404", async () => {
    const a = await fresh();
    const b = await fresh();
    const testA = await newTest(a);
    const testB = await newTest(b);
    const configA = String((await json(await post(a, '/configs', { name: 'load', vus: 2, duration: '10s' }))).id);
    const machineA = String((await json(await post(a, '/machines', { name: 'gen', hostname: 'sched-gen.example', ip_address: '10.0.0.5' }))).id);
    const scheduleA = await newSchedule(a, { test_id: testA, cron: '* * * * *', config_id: configA, machine_ids: [machineA] });
    for (const body of [
      { test_id: testA, cron: '* * * * *' },
      { test_id: testB, cron: '* * * * *', config_id: configA },
      { test_id: testB, cron: '* * * * *', machine_ids: [machineA] },
      { test_id: 'not-a-uuid', cron: '* * * * *' },
    ]) {
      const response = await post(b, '/schedules', body);
      expect(response.status, JSON.stringify(body)).toBe(404);
    }
    expect((await get(b, `/schedules/${scheduleA.id}`)).status).toBe(404);
    expect((await patch(b, String(scheduleA.id), { enabled: false })).status).toBe(404);
    expect((await ts.request(`/api/v1/schedules/${scheduleA.id}`, { method: 'DELETE', token: b })).status).toBe(404);
    expect(await (await get(b, '/schedules')).json()).toEqual([]);
    // A's own schedule is untouched.
    expect(await json(await get(a, `/schedules/${scheduleA.id}`))).toMatchObject({ enabled: true, machine_ids: [machineA], config_id: configA });
  });

  test('runs:read reads, runs:write writes; a tests:write token may not', async () => {
    const jwt = await fresh();
    const testId = await newTest(jwt);
    const token = async (scopes: string[]) => String((await json(await post(jwt, '/api-tokens', { name: scopes.join('+'), scopes }))).token);
    const reader = await token(['runs:read']);
    const writer = await token(['runs:write']);
    const tests = await token(['tests:write', 'tests:read']);
    expect((await post(reader, '/schedules', { test_id: testId, cron: '* * * * *' })).status).toBe(403);
    expect((await post(tests, '/schedules', { test_id: testId, cron: '* * * * *' })).status).toBe(403);
    const created = await newSchedule(writer, { test_id: testId, cron: '* * * * *' });
    expect((await get(reader, `/schedules/${created.id}`)).status).toBe(200);
    expect((await get(tests, '/schedules')).status).toBe(403);
  });

  test('the plan limits the number of schedules: 403 plan_limit_schedules', async () => {
    const owner = await fresh();
    const testId = await newTest(owner);
    expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token: owner, json: { plan: 'starter' } })).status).toBe(200);
    const workspace = await json(await get(owner, '/workspace'));
    expect((workspace.limits as Json).schedules).toBe(5);
    for (let i = 0; i < 5; i++) await newSchedule(owner, { test_id: testId, cron: `${i} * * * *`, enabled: i % 2 === 0 });
    const over = await post(owner, '/schedules', { test_id: testId, cron: '* * * * *' });
    expect(over.status).toBe(403);
    expect(await over.json()).toEqual({ error: 'plan_limit_schedules', message: 'the starter plan allows 5 schedules' });
  });
});

describe('schedules: firing', () => {
  test('a due schedule starts one run with schedule_id, then waits for its next time', async () => {
    clock = new Date('2026-11-26T12:00:30Z');
    const owner = await fresh();
    const testId = await newTest(owner);
    const schedule = await newSchedule(owner, { test_id: testId, cron: '* * * * *' });
    expect(schedule.next_run_at).toBe('2026-11-26T12:01:00.000Z');
    await ts.service.schedules.sweep();
    expect(await runsOf(owner, String(schedule.id))).toEqual([]);

    clock = new Date('2026-11-26T12:01:02Z');
    await ts.service.schedules.sweep();
    await ts.service.schedules.sweep();
    const runs = await runsOf(owner, String(schedule.id));
    expect(runs.length).toBe(1);
    expect(runs[0]).toMatchObject({ test_id: testId, schedule_id: schedule.id, status: 'pending' });
    expect(runs[0]!.pending_reason).toBeTruthy();
    const after = await json(await get(owner, `/schedules/${schedule.id}`));
    expect(after).toMatchObject({ last_task_id: runs[0]!.id, last_run_at: '2026-11-26T12:01:02.000Z', next_run_at: '2026-11-26T12:02:00.000Z', last_error: null });
    expect(await json(await get(owner, `/tasks/${runs[0]!.id}`))).toMatchObject({ schedule_id: schedule.id });
    const audit = (await (await get(owner, '/audit-log?action=run.started')).json()) as { actor: Json; target: Json; details: Json }[];
    expect(audit[0]).toMatchObject({ actor: { type: 'system', id: schedule.id }, target: { type: 'task', id: runs[0]!.id }, details: { schedule_id: schedule.id } });
  });

  test('a stretch missed while nothing swept runs once; a disabled schedule never runs', async () => {
    clock = new Date('2026-11-26T12:00:30Z');
    const owner = await fresh();
    const testId = await newTest(owner);
    const every = await newSchedule(owner, { test_id: testId, cron: '* * * * *' });
    const off = await newSchedule(owner, { test_id: testId, cron: '* * * * *', enabled: false });
    // Three hours and 180 due minutes later: one run, and the next time is the next minute to come.
    clock = new Date('2026-11-26T15:00:45Z');
    await ts.service.schedules.sweep();
    await ts.service.schedules.sweep();
    expect((await runsOf(owner, String(every.id))).length).toBe(1);
    expect((await json(await get(owner, `/schedules/${every.id}`))).next_run_at).toBe('2026-11-26T15:01:00.000Z');
    expect(await runsOf(owner, String(off.id))).toEqual([]);
    expect(await json(await get(owner, `/schedules/${off.id}`))).toMatchObject({ next_run_at: null, last_run_at: null });
  });

  test("a run that cannot start is the schedule's last_error, and the schedule moves on", async () => {
    clock = new Date('2026-11-26T12:00:30Z');
    const owner = await fresh();
    const testId = await newTest(owner);
    const machine = String((await json(await post(owner, '/machines', { name: 'gone', hostname: 'sched-gone.example', ip_address: '10.0.0.6' }))).id);
    const schedule = await newSchedule(owner, { test_id: testId, cron: '* * * * *', machine_ids: [machine] });
    expect((await ts.request(`/api/v1/machines/${machine}`, { method: 'DELETE', token: owner })).status).toBe(204);
    clock = new Date('2026-11-26T12:01:01Z');
    await ts.service.schedules.sweep();
    expect(await runsOf(owner, String(schedule.id))).toEqual([]);
    expect(await json(await get(owner, `/schedules/${schedule.id}`))).toMatchObject({
      last_error: `machine "${machine}" not found`,
      last_task_id: null,
      next_run_at: '2026-11-26T12:02:00.000Z',
      enabled: true,
    });
  });

  test("deleting a test deletes its schedules", async () => {
    clock = new Date('2026-11-26T12:00:30Z');
    const owner = await fresh();
    const testId = await newTest(owner);
    const kept = await newTest(owner, 'kept');
    const schedule = await newSchedule(owner, { test_id: testId, cron: '* * * * *' });
    const other = await newSchedule(owner, { test_id: kept, cron: '* * * * *' });
    expect((await ts.request(`/api/v1/tests/${testId}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await get(owner, `/schedules/${schedule.id}`)).status).toBe(404);
    expect((await get(owner, `/schedules/${other.id}`)).status).toBe(200);
    clock = new Date('2026-11-26T12:01:01Z');
    await ts.service.schedules.sweep();
    expect(await runsOf(owner, String(schedule.id))).toEqual([]);
  });
});
