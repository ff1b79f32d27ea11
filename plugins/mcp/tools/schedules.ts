/** list_schedules and write_schedule: tests started by a cron expression in a time zone (REST /schedules). */
import { type Static, Type } from '@sinclair/typebox';
import { RestError } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, Nullable, pageArgs, pageOf, scanFiltered } from '../paging.ts';

/** REST's own limit on a schedule's machines (`maxScheduleMachines`). */
const maxScheduleMachines = 50;

const cronDescription =
  'five fields: minute hour day-of-month month day-of-week, e.g. "0 3 * * mon-fri" (03:00 on weekdays), "*/15 * * * *"; values, ' +
  'ranges, steps, lists, month and day names; when both day fields are restricted a day matches either (as Vixie cron reads them)';
const timezoneDescription = 'IANA time zone the cron expression is read in, e.g. Europe/Berlin; default UTC';

const Schedule = Type.Object(
  {
    id: Type.String({ description: 'the schedule id (write_schedule schedule_id)' }),
    test_id: Type.String({ description: 'the test it runs' }),
    cron: Type.String({ description: cronDescription }),
    timezone: Type.String({ description: 'canonical IANA time zone the cron is read in' }),
    config_id: Nullable(Type.String({ description: 'the load configuration its runs use; null: the test alone' })),
    machine_ids: Type.Array(Type.String(), { description: 'machines its runs run on together; empty: one free machine' }),
    enabled: Type.Boolean({ description: 'false: it never fires' }),
    next_run_at: Nullable(Type.String({ description: 'when it runs next (ISO 8601, UTC); null while disabled' })),
    last_task_id: Nullable(Type.String({ description: 'the last run it started (get_run)' })),
    last_run_at: Nullable(Type.String({ description: 'when it last started a run' })),
    last_error: Nullable(Type.String({ description: 'why the last time it was due started no run; null after a run' })),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { description: 'a test run by cron in a time zone; the runs it starts carry schedule_id' },
);
type ScheduleView = Static<typeof Schedule>;

/** REST has no filter by test: with test_id the schedules are scanned newest first, this many per REST page and at most this many per call. */
const scanPageSize = 200;
const maxScannedPerCall = 5000;

export const listSchedules = defineTool({
  name: 'list_schedules',
  title: 'List schedules',
  description:
    "The workspace's schedules: tests started by a cron expression in a time zone, each with its test, load configuration, machines, " +
    'whether it is enabled, when it runs next (next_run_at, null while disabled), the last run it started (last_task_id, get_run) and ' +
    `why the last due time started none (last_error). ${newestFirst} With test_id, only that test's schedules (scanning up to ` +
    `${maxScannedPerCall} schedules per call; a page may then hold fewer items while next_cursor is not null). write_schedule creates, ` +
    'changes or deletes one. Needs runs:read.',
  input: Type.Object(
    { test_id: Type.Optional(Type.String({ minLength: 1, description: "only this test's schedules" })), ...pageArgs },
    { additionalProperties: false },
  ),
  output: pageOf(Schedule),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ test_id, limit, cursor }, { rest }) {
    if (test_id === undefined) return rest.page<ScheduleView>('/schedules', { limit, cursor });
    const { items, next_cursor } = await scanFiltered<ScheduleView>(
      rest,
      { limit, cursor },
      { tool: 'list_schedules', path: '/schedules', keep: (schedule) => schedule.test_id === test_id, pageSize: scanPageSize, maxScanned: maxScannedPerCall },
    );
    return { items, next_cursor };
  },
});

export const writeSchedule = defineTool({
  name: 'write_schedule',
  title: 'Create, change or delete a schedule',
  description:
    'Schedules a test to run by a cron expression (without schedule_id: test_id and cron, optional timezone, config_id, machine_ids, ' +
    'enabled), changes one (with schedule_id: any of those fields; config_id null removes the configuration; a new cron or timezone, ' +
    'or enabling it again, sets next_run_at from now and what it missed never runs), or deletes one (schedule_id and delete: true; the ' +
    'runs it started stay). Each due time starts one run as run_test would, on the given machines together (none: one free machine). ' +
    'A bad cron or time zone is a bad_request naming the problem; a test, configuration or machine not of this workspace is not_found; ' +
    'past the plan\'s number of schedules, plan_limit_schedules. Returns the saved schedule (null once deleted) with next_run_at. ' +
    'Needs run_tests (runs:write).',
  input: Type.Object(
    {
      schedule_id: Type.Optional(Type.String({ minLength: 1, description: 'the schedule to change or delete (list_schedules); omit to create one' })),
      test_id: Type.Optional(Type.String({ minLength: 1, description: 'the test to run (list_tests); needed to create' })),
      cron: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `needed to create: ${cronDescription}` })),
      timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: timezoneDescription })),
      config_id: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'a load configuration (list_configs); null: none, the test alone' }))),
      machine_ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1 }), {
          maxItems: maxScheduleMachines,
          description: `machines (list_machines) its runs run on together, at most ${maxScheduleMachines}; empty: one free machine`,
        }),
      ),
      enabled: Type.Optional(Type.Boolean({ description: 'default true on create; false: it never fires until enabled again' })),
      delete: Type.Optional(Type.Boolean({ description: 'true, with schedule_id and nothing else: delete the schedule' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    schedule: Nullable(Schedule),
    created: Type.Boolean({ description: 'true: a new schedule' }),
    deleted: Type.Boolean({ description: 'true: the schedule is gone (schedule is null)' }),
  }),
  // Deletes with delete: true, and a change replaces fields; creating twice makes two schedules.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async run({ schedule_id, delete: remove, ...fields }, { rest }) {
    const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    if (remove === true) {
      if (schedule_id === undefined) throw new RestError(400, 'bad_request', 'delete: true needs the schedule_id of the schedule to delete');
      if (Object.keys(given).length > 0) {
        throw new RestError(400, 'bad_request', `give delete: true alone with schedule_id, or fields to change, not both (got ${Object.keys(given).join(', ')})`);
      }
      await rest.send('DELETE', `/schedules/${encodeURIComponent(schedule_id)}`);
      return { schedule: null, created: false, deleted: true };
    }
    if (schedule_id === undefined) {
      if (given.test_id === undefined || given.cron === undefined) {
        throw new RestError(400, 'bad_request', 'a new schedule needs test_id and cron; to change or delete one, give schedule_id');
      }
      return { schedule: await rest.send<ScheduleView>('POST', '/schedules', given), created: true, deleted: false };
    }
    // An empty change goes to REST too, which says what it takes.
    return { schedule: await rest.send<ScheduleView>('PATCH', `/schedules/${encodeURIComponent(schedule_id)}`, given), created: false, deleted: false };
  },
});
