/** /schedules: a test started by cron in a time zone; the runs it starts carry `schedule_id`. */
import { Elysia, t } from 'elysia';
import { maxScheduleMachines, toScheduleView } from '../../services/schedules/schedules.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, Timestamp } from '../schemas/common.ts';

const cronDescription =
  'five fields: minute hour day-of-month month day-of-week (e.g. "0 3 * * mon-fri"); values, ranges, steps (*/15), lists, ' +
  'month and day names; when both day fields are restricted a day matches either (as Vixie cron reads them)';
const timezoneDescription =
  'IANA time zone the cron expression is read in (e.g. Europe/Berlin), default UTC. A time skipped when the clock moves ' +
  'forward runs when it jumps; a time repeated when it moves back runs once';

const ScheduleView = t.Object(
  {
    id: t.String(),
    test_id: t.String(),
    cron: t.String({ description: cronDescription }),
    timezone: t.String({ description: 'canonical IANA name' }),
    config_id: t.Nullable(t.String({ description: 'the load configuration its runs use; null: the test alone' })),
    machine_ids: t.Array(t.String(), { description: 'machines its runs run on together; empty: one free machine' }),
    enabled: t.Boolean(),
    next_run_at: t.Nullable(Timestamp),
    last_task_id: t.Nullable(t.String({ description: 'the last run it started' })),
    last_run_at: t.Nullable(Timestamp),
    last_error: t.Nullable(t.String({ description: 'why the last time it was due started no run (e.g. too many tasks waiting); null after a run' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Schedule' },
);

const fields = {
  cron: t.String({ minLength: 1, maxLength: 200, description: cronDescription }),
  timezone: t.String({ minLength: 1, maxLength: 64, description: timezoneDescription }),
  config_id: t.Nullable(t.String({ description: 'a load configuration of the workspace; null: none' })),
  machine_ids: t.Array(t.String(), { maxItems: maxScheduleMachines, description: 'machines of the workspace to run on together; default: one free machine' }),
  enabled: t.Boolean({ description: 'default true; a disabled schedule never fires' }),
};

const ScheduleCreate = t.Object(
  {
    test_id: t.String({ minLength: 1, description: 'a test of the workspace' }),
    cron: fields.cron,
    timezone: t.Optional(fields.timezone),
    config_id: t.Optional(fields.config_id),
    machine_ids: t.Optional(fields.machine_ids),
    enabled: t.Optional(fields.enabled),
  },
  { additionalProperties: false, title: 'ScheduleCreate' },
);

const ScheduleChange = t.Object(
  {
    test_id: t.Optional(t.String({ minLength: 1, description: 'a test of the workspace' })),
    cron: t.Optional(fields.cron),
    timezone: t.Optional(fields.timezone),
    config_id: t.Optional(fields.config_id),
    machine_ids: t.Optional(fields.machine_ids),
    enabled: t.Optional(fields.enabled),
  },
  {
    additionalProperties: false,
    title: 'ScheduleChange',
    description: 'any of the fields; a new cron or timezone, or enabling it again, sets next_run_at from now (what it missed meanwhile never runs)',
  },
);

export const scheduleRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/schedules', detail: { tags: ['Schedules'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.schedules.list(context.caller, page), toScheduleView), {
      query: PageQuery,
      response: { 200: t.Array(ScheduleView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's schedules, newest first" },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const schedule = await deps.schedules.create(caller, body);
        set.status = 201;
        return toScheduleView(schedule);
      },
      {
        body: ScheduleCreate,
        response: { 201: ScheduleView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: 'Schedule a test',
          description:
            'A run it starts is like POST /tasks with the schedule\'s test, config and machines, and carries `schedule_id`. A time missed ' +
            'while the service was down runs once at its next start. 404 for a test, config or machine not of this workspace; 403 ' +
            '`plan_limit_schedules` past the plan\'s number of schedules.',
        },
      },
    )
    .get('/:id', async ({ caller, params }) => toScheduleView(await deps.schedules.get(caller, params.id)), {
      params: IdParams,
      response: { 200: ScheduleView, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'One schedule' },
    })
    .patch('/:id', async ({ caller, params, body }) => toScheduleView(await deps.schedules.update(caller, params.id, body)), {
      params: IdParams,
      body: ScheduleChange,
      response: { 200: ScheduleView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Change or enable/disable a schedule' },
    })
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.schedules.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Delete a schedule (the runs it started stay)' },
      },
    );
