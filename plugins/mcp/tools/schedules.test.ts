/**
 * list_schedules and write_schedule against the real service, over POST /api/mcp in process: a schedule created,
 * listed (all, and one test's, paged), changed, disabled and deleted, each answer checked against what REST holds; and
 * REST's refusals as tool errors: a viewer (no run_tests), a runs:read token, another workspace's schedule (not found),
 * a bad cron or time zone (REST's message as it is).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { seedTest } from '../../../tests/helpers/finished-runs.ts';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

type Structured = Record<string, unknown>;
type Result = { isError?: boolean; structuredContent?: Structured; content: { text: string }[] };
interface Caller {
  bearer: string;
  headers?: Record<string, string>;
}
interface Schedule {
  id: string;
  test_id: string;
  cron: string;
  timezone: string;
  config_id: string | null;
  machine_ids: string[];
  enabled: boolean;
  next_run_at: string | null;
  last_task_id: string | null;
}
interface Written {
  schedule: Schedule | null;
  created: boolean;
  deleted: boolean;
}

let ts: TestService;
let owner: Caller;
let ownerJwt: string;
let checkout: string;
let search: string;

/** One tools/call over POST /api/mcp (answered as one SSE event): the tool's result. */
async function callTool(name: string, args: Structured, caller: Caller = owner): Promise<Result> {
  const response = await ts.request('/api/mcp', {
    method: 'POST',
    token: caller.bearer,
    headers: { accept: 'application/json, text/event-stream', ...caller.headers },
    json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return (JSON.parse(data ? data.slice('data: '.length) : text) as { result: Result }).result;
}

async function answer<T = Structured>(name: string, args: Structured, caller: Caller = owner): Promise<T> {
  const result = await callTool(name, args, caller);
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  // The text is the same answer as JSON.
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

async function toolError(name: string, args: Structured, caller: Caller = owner): Promise<{ error: string; message: string; status: number }> {
  const result = await callTool(name, args, caller);
  expect(result.isError, result.content[0]?.text).toBe(true);
  return JSON.parse(result.content[0]!.text);
}

const rest = (path: string) => ts.request(`/api/v1${path}`, { token: owner.bearer });
const restSchedule = async (id: string) => (await rest(`/schedules/${id}`)).json() as Promise<Schedule>;
const listed = async (args: Structured, caller: Caller = owner) => answer<{ items: Schedule[]; next_cursor: string | null }>('list_schedules', args, caller);

/** Every page of list_schedules with these arguments: the ids, in order. */
async function allPages(args: Structured, caller: Caller = owner): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await listed({ ...args, ...(cursor ? { cursor } : {}) }, caller);
    ids.push(...page.items.map((each) => each.id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 20);
  return { ids, pages };
}

beforeAll(async () => {
  ts = await startTestService();
  const made = await ts.apiToken('mcp-schedules-owner');
  owner = { bearer: made.token };
  ownerJwt = made.jwt;
  checkout = await seedTest(ts, owner.bearer, 'checkout');
  search = await seedTest(ts, owner.bearer, 'search');
}, 120_000);
afterAll(() => ts.stop());

describe('write_schedule and list_schedules', () => {
  test('create, list (all and by test, paged), change, disable, delete: each answer what REST holds', async () => {
    const made = await answer<Written>('write_schedule', { test_id: checkout, cron: '0 3 * * mon-fri', timezone: 'Europe/Berlin' });
    expect(made).toMatchObject({ created: true, deleted: false });
    const schedule = made.schedule!;
    expect(schedule).toMatchObject({ test_id: checkout, cron: '0 3 * * mon-fri', timezone: 'Europe/Berlin', config_id: null, machine_ids: [], enabled: true, last_task_id: null });
    expect(schedule.next_run_at).not.toBeNull();
    expect(schedule).toEqual(await restSchedule(schedule.id));

    const config = (await (await ts.request('/api/v1/configs', { method: 'POST', token: owner.bearer, json: { name: 'light', vus: 2, duration: '30s' } })).json()) as { id: string };
    const other = (await answer<Written>('write_schedule', { test_id: search, cron: '*/30 * * * *', config_id: config.id, enabled: false })).schedule!;
    expect(other).toMatchObject({ test_id: search, timezone: 'UTC', config_id: config.id, enabled: false, next_run_at: null });
    const third = (await answer<Written>('write_schedule', { test_id: checkout, cron: '0 12 1 * mon' })).schedule!;

    // All of them, newest first, as REST lists them; one test's only, a page at a time.
    const all = await listed({});
    expect(all.items.map((each) => each.id)).toEqual([third.id, other.id, schedule.id]);
    expect(all.items).toEqual((await (await rest('/schedules')).json()) as Schedule[]);
    expect(all.next_cursor).toBeNull();
    expect(await allPages({ test_id: checkout, limit: 1 })).toEqual({ ids: [third.id, schedule.id], pages: 2 });
    expect(await allPages({ limit: 2 })).toEqual({ ids: [third.id, other.id, schedule.id], pages: 2 });
    expect((await listed({ test_id: search })).items.map((each) => each.id)).toEqual([other.id]);
    expect(await listed({ test_id: crypto.randomUUID() })).toEqual({ items: [], next_cursor: null });
    expect((await toolError('list_schedules', { test_id: checkout, cursor: 'garbage' })).message).toContain('list_schedules');

    // Changed: another time and zone, a configuration, then none again; disabled, then deleted.
    const changed = await answer<Written>('write_schedule', { schedule_id: schedule.id, cron: '30 6 * * *', timezone: 'America/New_York', config_id: config.id });
    expect(changed).toMatchObject({ created: false, deleted: false, schedule: { id: schedule.id, cron: '30 6 * * *', timezone: 'America/New_York', config_id: config.id, enabled: true } });
    expect(changed.schedule).toEqual(await restSchedule(schedule.id));
    const disabled = await answer<Written>('write_schedule', { schedule_id: schedule.id, enabled: false, config_id: null });
    expect(disabled.schedule).toMatchObject({ enabled: false, next_run_at: null, config_id: null, cron: '30 6 * * *' });
    const moved = await answer<Written>('write_schedule', { schedule_id: third.id, test_id: search });
    expect(moved.schedule).toMatchObject({ test_id: search, cron: '0 12 1 * mon' });
    expect((await listed({ test_id: search })).items.map((each) => each.id)).toEqual([third.id, other.id]);

    for (const id of [schedule.id, other.id, third.id]) {
      expect(await answer<Written>('write_schedule', { schedule_id: id, delete: true })).toEqual({ schedule: null, created: false, deleted: true });
      expect((await rest(`/schedules/${id}`)).status).toBe(404);
    }
    expect(await listed({})).toEqual({ items: [], next_cursor: null });
    expect(await toolError('write_schedule', { schedule_id: schedule.id, delete: true })).toMatchObject({ error: 'not_found', status: 404 });

    const audit = (await (await rest('/audit-log?limit=100')).json()) as { action: string }[];
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['schedule.created', 'schedule.updated', 'schedule.deleted']));
  });

  test("a bad cron or time zone, a test or machine not found: REST's refusal and message, nothing saved", async () => {
    const badCron = await toolError('write_schedule', { test_id: checkout, cron: '61 * * * *' });
    expect(badCron).toEqual({ error: 'bad_request', status: 400, message: 'cron is not a valid 5-field expression: minute: 61 is outside 0-59' });
    const never = await toolError('write_schedule', { test_id: checkout, cron: '0 0 31 2 *' });
    expect(never).toMatchObject({ error: 'bad_request', status: 400 });
    const badZone = await toolError('write_schedule', { test_id: checkout, cron: '0 3 * * *', timezone: 'Mars/Olympus' });
    expect(badZone).toMatchObject({ error: 'bad_request', status: 400 });
    expect(badZone.message).toContain('"Mars/Olympus" is not an IANA time zone');
    expect(await toolError('write_schedule', { test_id: crypto.randomUUID(), cron: '0 3 * * *' })).toMatchObject({ error: 'not_found', status: 404 });
    expect(await toolError('write_schedule', { test_id: checkout, cron: '0 3 * * *', machine_ids: [crypto.randomUUID()] })).toMatchObject({ error: 'not_found', status: 404 });
    expect(await listed({})).toEqual({ items: [], next_cursor: null });

    // The same from a change: the schedule stays as it was.
    const kept = (await answer<Written>('write_schedule', { test_id: checkout, cron: '0 3 * * *' })).schedule!;
    expect((await toolError('write_schedule', { schedule_id: kept.id, cron: '* * * * * *' })).message).toContain('cron is not a valid 5-field expression');
    const nothing = await toolError('write_schedule', { schedule_id: kept.id });
    expect(nothing).toMatchObject({ error: 'bad_request', status: 400 });
    expect(nothing.message).toContain('nothing to change');
    expect(await restSchedule(kept.id)).toMatchObject({ cron: '0 3 * * *' });

    // What the tool itself refuses, before any call.
    expect((await toolError('write_schedule', { test_id: checkout })).message).toContain('needs test_id and cron');
    expect((await toolError('write_schedule', { delete: true })).message).toContain('needs the schedule_id');
    expect((await toolError('write_schedule', { schedule_id: kept.id, delete: true, enabled: false })).message).toContain('not both');
    expect((await toolError('write_schedule', { test_id: checkout, cron: '0 3 * * *', every: 'day' })).message).toContain('invalid arguments');
    expect(await restSchedule(kept.id)).toMatchObject({ cron: '0 3 * * *', enabled: true });
    await answer('write_schedule', { schedule_id: kept.id, delete: true });
  });
});

describe('who may', () => {
  test('a viewer of the workspace lists schedules but may not write them (forbidden: no run_tests); a runs:read token neither', async () => {
    const kept = (await answer<Written>('write_schedule', { test_id: checkout, cron: '15 4 * * *' })).schedule!;
    const workspaceId = ((await (await rest('/workspace')).json()) as { id: string }).id;
    const viewerJwt = await ts.createUser('mcp-schedules-viewer');
    // Signed in once (a workspace of their own as owner), so they can be invited.
    await ts.request('/api/v1/auth/me', { token: viewerJwt });
    const { invited } = await inviteAndAccept(ts, ownerJwt, 'mcp-schedules-viewer', 'viewer', viewerJwt);
    expect(invited.status, await invited.clone().text()).toBe(201);
    const viewer: Caller = { bearer: viewerJwt, headers: { 'x-workspace-id': workspaceId } };
    expect(await answer('whoami', {}, viewer)).toMatchObject({ role: 'viewer', workspace: { id: workspaceId } });

    expect((await listed({}, viewer)).items.map((each) => each.id)).toEqual([kept.id]);
    for (const args of [{ test_id: checkout, cron: '0 3 * * *' }, { schedule_id: kept.id, enabled: false }, { schedule_id: kept.id, delete: true }]) {
      const refused = await toolError('write_schedule', args, viewer);
      expect(refused, JSON.stringify(args)).toMatchObject({ error: 'forbidden', status: 403 });
      expect(refused.message).toContain('run_tests');
    }

    const { token: reader } = await ts.apiToken('mcp-schedules-reader', ['tests:read', 'runs:read']);
    // The reader's own workspace: none of ours.
    expect(await listed({}, { bearer: reader })).toEqual({ items: [], next_cursor: null });
    expect(await toolError('write_schedule', { schedule_id: kept.id, enabled: false }, { bearer: reader })).toMatchObject({ error: 'insufficient_scope', status: 403 });

    expect(await restSchedule(kept.id)).toMatchObject({ enabled: true, cron: '15 4 * * *' });
    await answer('write_schedule', { schedule_id: kept.id, delete: true });
  });

  test("another workspace's schedule is not found, to change or to delete, and its tests cannot be scheduled", async () => {
    const kept = (await answer<Written>('write_schedule', { test_id: checkout, cron: '45 5 * * *' })).schedule!;
    const { token } = await ts.apiToken('mcp-schedules-stranger');
    const stranger: Caller = { bearer: token };
    expect(await toolError('write_schedule', { schedule_id: kept.id, enabled: false }, stranger)).toMatchObject({ error: 'not_found', status: 404 });
    expect(await toolError('write_schedule', { schedule_id: kept.id, delete: true }, stranger)).toMatchObject({ error: 'not_found', status: 404 });
    expect(await toolError('write_schedule', { test_id: checkout, cron: '0 3 * * *' }, stranger)).toMatchObject({ error: 'not_found', status: 404 });
    expect(await listed({ test_id: checkout }, stranger)).toEqual({ items: [], next_cursor: null });
    expect(await restSchedule(kept.id)).toMatchObject({ enabled: true, cron: '45 5 * * *' });
    await answer('write_schedule', { schedule_id: kept.id, delete: true });
  });

  test('the tools are listed with their annotations: list_schedules read-only, write_schedule a destructive write', async () => {
    const response = await ts.request('/api/mcp', {
      method: 'POST',
      token: owner.bearer,
      headers: { accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const text = await response.text();
    const data = text.split('\n').find((line) => line.startsWith('data: '))!;
    const tools = (JSON.parse(data.slice(6)) as { result: { tools: { name: string; annotations: Structured; inputSchema: Structured; outputSchema: Structured }[] } }).result.tools;
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_schedules')?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(Object.keys(byName.get('list_schedules')!.inputSchema.properties as Structured)).toEqual(['test_id', 'limit', 'cursor']);
    expect(Object.keys(byName.get('list_schedules')!.outputSchema.properties as Structured)).toEqual(['items', 'next_cursor']);
    expect(byName.get('write_schedule')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(byName.get('write_schedule')?.inputSchema).toMatchObject({ additionalProperties: false });
    expect(byName.get('write_schedule')?.inputSchema.required).toBeUndefined();
  });
});
