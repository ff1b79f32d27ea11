/** GET /tasks?test_id=&status=&machine_id= (the UI's runs filters) and GET /tests/{id}: exact, paged, workspace-scoped. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let alice: string;
let bob: string;

beforeAll(async () => {
  ts = await startTestService();
  alice = await ts.createUser('filter-alice');
  bob = await ts.createUser('filter-bob');
});
afterAll(() => ts.stop());

const json = async <T>(response: Response | Promise<Response>) => (await (await response).json()) as T;
const createTest = (token: string, name: string) =>
  json<{ id: string }>(ts.request('/api/v1/tests', { method: 'POST', token, json: { name, tool: 'custom', script: 'echo hi' } }));
const createMachine = (token: string, hostname: string) =>
  json<{ id: string }>(ts.request('/api/v1/machines', { method: 'POST', token, json: { name: hostname, hostname, ip_address: '10.0.0.9' } }));
const start = (token: string, body: Record<string, unknown>) => json<{ id: string }>(ts.request('/api/v1/tasks', { method: 'POST', token, json: body }));
const ids = async (token: string, query: string) => (await json<{ id: string }[]>(ts.request(`/api/v1/tasks?${query}`, { token }))).map((t) => t.id);

describe('GET /tasks filters', () => {
  test('by test, status and machine, alone and together, paged with the filter kept', async () => {
    const one = await createTest(alice, 'one');
    const two = await createTest(alice, 'two');
    const gen1 = await createMachine(alice, 'gen-1');
    const gen2 = await createMachine(alice, 'gen-2');
    const a = await start(alice, { testId: one.id, machineIds: [gen1.id] });
    const b = await start(alice, { testId: one.id, machineIds: [gen2.id] });
    const c = await start(alice, { testId: two.id, machineIds: [gen1.id, gen2.id] });
    const d = await start(alice, { testId: one.id, machineIds: [gen1.id] });
    expect((await ts.request(`/api/v1/tasks/${d.id}`, { method: 'DELETE', token: alice })).status).toBe(204);

    expect(await ids(alice, `test_id=${one.id}`)).toEqual([d.id, b.id, a.id]);
    expect(await ids(alice, `test_id=${two.id}`)).toEqual([c.id]);
    expect(await ids(alice, 'status=cancelled')).toEqual([d.id]);
    expect(await ids(alice, `status=pending&test_id=${one.id}`)).toEqual([b.id, a.id]);
    expect(await ids(alice, `machine_id=${gen1.id}`)).toEqual([d.id, c.id, a.id]);
    expect(await ids(alice, `machine_id=${gen2.id.toUpperCase()}&status=pending`)).toEqual([c.id, b.id]);

    // Paging keeps the filter: the next link carries it, and the pages add up to the filtered list.
    const first = await ts.request(`/api/v1/tasks?machine_id=${gen1.id}&limit=2`, { token: alice });
    expect(((await first.json()) as { id: string }[]).map((t) => t.id)).toEqual([d.id, c.id]);
    const next = first.headers.get('link')!.match(/<([^>]+)>/)![1]!;
    expect(next).toContain(`machine_id=${gen1.id}`);
    expect(((await (await ts.request(next, { token: alice })).json()) as { id: string }[]).map((t) => t.id)).toEqual([a.id]);

    // Another workspace's test or machine filters to nothing there: its runs stay invisible.
    expect(await ids(bob, `test_id=${one.id}`)).toEqual([]);
    expect(await ids(bob, `machine_id=${gen1.id}`)).toEqual([]);
  });

  test('a malformed id or an unknown status is a 400 naming it', async () => {
    for (const [query, name] of [['test_id=nope', 'test_id'], ['machine_id=1', 'machine_id'], ['status=done', 'status']] as const) {
      const response = await ts.request(`/api/v1/tasks?${query}`, { token: alice });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe('bad_request');
      expect(body.message).toStartWith(name);
    }
  });
});

describe('GET /tests/{id}', () => {
  test('answers the test as the list shows it; another workspace, deleted and malformed ids are 404', async () => {
    const created = await createTest(alice, 'read me');
    const response = await ts.request(`/api/v1/tests/${created.id}`, { token: alice });
    expect(response.status).toBe(200);
    const listed = (await json<{ id: string }[]>(ts.request('/api/v1/tests', { token: alice }))).find((t) => t.id === created.id);
    expect(await response.json()).toEqual(listed!);
    expect((await ts.request(`/api/v1/tests/${created.id}`, { token: bob })).status).toBe(404);
    expect((await ts.request('/api/v1/tests/not-an-id', { token: alice })).status).toBe(404);
    expect((await ts.request(`/api/v1/tests/${created.id}`, { method: 'DELETE', token: alice })).status).toBe(204);
    const gone = await ts.request(`/api/v1/tests/${created.id}`, { token: alice });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: string }).error).toBe('not_found');
  });
});
