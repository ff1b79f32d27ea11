import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let alice: string;
let bob: string;

async function createTest(token: string, tool = 'custom', script = 'echo hi') {
  const response = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `${tool} test`, tool, script } });
  return ((await response.json()) as { id: string }).id;
}

const start = (token: string, json: Record<string, unknown>) => ts.request('/api/v1/tasks', { method: 'POST', token, json });

beforeAll(async () => {
  // JMeter without its plugin: a spec tool whose plugin is not loaded (whether or not it is built in by now).
  ts = await startTestService({ boot: { leaveOut: ['load-tool-jmeter'] } });
  alice = await ts.createUser('alice');
  bob = await ts.createUser('bob');
});
afterAll(() => ts.stop());

describe('tasks (no agent connected)', () => {
  test('start answers 202 pending; the task waits, listed newest first, found by UUID and public id', async () => {
    const testId = await createTest(alice);
    const first = await start(alice, { testId });
    expect(first.status).toBe(202);
    const a = (await first.json()) as { id: string; public_id: string; status: string; stream: Record<string, { url: string }> };
    expect(a.status).toBe('pending');
    expect(a.public_id).toMatch(/^run-[0-9a-z]{8}$/);
    expect(a.stream.pending!.url).toBe(`http://localhost:8080/api/v1/tasks/${a.id}/log-stream`);
    const second = (await (await start(alice, { testId, transport: 'long_polling' })).json()) as { id: string };

    const list = (await (await ts.request('/api/v1/tasks', { token: alice })).json()) as { id: string; transport: string }[];
    expect(list.slice(0, 2).map((t) => t.id)).toEqual([second.id, a.id]);
    expect(list[0]!.transport).toBe('sse');
    for (const key of [a.id, a.public_id, a.public_id.toUpperCase()]) {
      const task = await ts.request(`/api/v1/tasks/${key}`, { token: alice });
      expect(task.status).toBe(200);
      expect(await task.json()).toMatchObject({
        id: a.id,
        test_id: testId,
        status: 'pending',
        p50: 0,
        p95: 0,
        p99: 0,
        error_rate: 0,
        requests_per_sec: 0,
        total_requests: 0,
        started_at: null,
        finished_at: null,
      });
    }
  });

  test('with transport ws the start answer advertises the WebSocket URL', async () => {
    const testId = await createTest(alice);
    const body = (await (await start(alice, { testId, transport: 'ws' })).json()) as { id: string; stream: Record<string, { url: string }> };
    expect(Object.values(body.stream)[0]!.url).toBe(`ws://localhost:8080/api/v1/tasks/${body.id}/ws`);
  });

  test('cancelling a pending task: 204, status cancelled, a second cancel is still 204', async () => {
    const testId = await createTest(alice);
    const { id } = (await (await start(alice, { testId })).json()) as { id: string };
    expect((await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token: alice })).status).toBe(204);
    const task = (await (await ts.request(`/api/v1/tasks/${id}`, { token: alice })).json()) as { status: string; finished_at: string };
    expect(task.status).toBe('cancelled');
    expect(task.finished_at).toMatch(/Z$/);
    expect((await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token: alice })).status).toBe(204);
  });

  test('a late SSE client of a finished task gets a single done event (in-process)', async () => {
    const testId = await createTest(alice);
    const { id } = (await (await start(alice, { testId })).json()) as { id: string };
    await ts.request(`/api/v1/tasks/${id}`, { method: 'DELETE', token: alice });
    const response = await ts.request(`/api/v1/tasks/${id}/log-stream`, { token: alice });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const frames = text.split('\n\n').filter((f) => f.includes('data: '));
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0]!.split('data: ')[1]!)).toMatchObject({ type: 'done', task: { id, status: 'cancelled' } });
  });

  test('deleting the test leaves its tasks readable', async () => {
    const testId = await createTest(alice);
    const { id } = (await (await start(alice, { testId })).json()) as { id: string };
    expect((await ts.request(`/api/v1/tests/${testId}`, { method: 'DELETE', token: alice })).status).toBe(204);
    const task = await ts.request(`/api/v1/tasks/${id}`, { token: alice });
    expect(task.status).toBe(200);
    expect(((await task.json()) as { test_id: string }).test_id).toBe(testId);
  });
});

describe('tasks: errors and security', () => {
  test.each([
    [{}, 400, 'testId'],
    [{ testId: crypto.randomUUID() }, 404, 'test not found'],
    [{ testId: 'nope' }, 404, 'test not found'],
    [{ testId: 'VALID', transport: 'carrier-pigeon' }, 400, 'transport'],
    [{ testId: 'VALID', machineIds: [crypto.randomUUID()] }, 404, 'not found'],
    [{ testId: 'VALID', machineIds: [''] }, 404, 'machine "" not found'],
    [{ testId: 'VALID', configId: crypto.randomUUID() }, 404, 'config not found'],
    [{ testId: 'VALID', extra: 1 }, 400, 'extra'],
  ])('start %p -> %d', async (body, status, mentions) => {
    const testId = await createTest(alice);
    const json = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === 'VALID' ? testId : v]));
    const response = await start(alice, json);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { message: string }).message).toContain(mentions);
  });

  test('a tool without its plugin yet answers a clear 400, not a hang', async () => {
    const testId = await createTest(alice, 'jmeter', '<jmeterTestPlan/>');
    const response = await start(alice, { testId });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('running jmeter tests is not supported yet');
  });

  test("another workspace's test, machine and task are 404", async () => {
    const testId = await createTest(alice);
    expect((await start(bob, { testId })).status).toBe(404);
    const machine = await ts.request('/api/v1/machines', { method: 'POST', token: alice, json: { name: 'm', hostname: 'alice-m', ip_address: '10.0.0.1' } });
    const { id: machineId } = (await machine.json()) as { id: string };
    const bobTest = await createTest(bob);
    expect((await start(bob, { testId: bobTest, machineIds: [machineId] })).status).toBe(404);
    const { id } = (await (await start(alice, { testId })).json()) as { id: string };
    for (const [method, path] of [['GET', `/api/v1/tasks/${id}`], ['DELETE', `/api/v1/tasks/${id}`], ['GET', `/api/v1/tasks/${id}/log-stream`]] as const) {
      expect((await ts.request(path, { method, token: bob })).status).toBe(404);
    }
    expect(((await (await ts.request(`/api/v1/tasks/${id}`, { token: alice })).json()) as { status: string }).status).toBe('pending');
  });
});

describe('load configurations', () => {
  test('create (vus+duration or stages), list, read, patch, delete; bad shapes are 400', async () => {
    const created = await ts.request('/api/v1/configs', { method: 'POST', token: alice, json: { name: 'smoke', vus: 5, duration: '30s' } });
    expect(created.status).toBe(201);
    const config = (await created.json()) as { id: string };
    expect(config).toMatchObject({ name: 'smoke', vus: 5, duration: '30s', stages: null });
    const staged = await ts.request('/api/v1/configs', {
      method: 'POST',
      token: alice,
      json: { name: 'ramp', stages: [{ duration: '10s', target: 10 }, { duration: '1m', target: 50 }] },
    });
    expect(staged.status).toBe(201);
    const list = (await (await ts.request('/api/v1/configs', { token: alice })).json()) as { name: string }[];
    expect(list.map((c) => c.name)).toEqual(['ramp', 'smoke']);
    const patched = await ts.request(`/api/v1/configs/${config.id}`, { method: 'PATCH', token: alice, json: { stages: [{ duration: '5s', target: 3 }] } });
    expect(await patched.json()).toMatchObject({ vus: null, duration: null, stages: [{ duration: '5s', target: 3 }] });
    for (const json of [
      { name: 'x' },
      { name: 'x', vus: 5 },
      { name: 'x', vus: 5, duration: 'soon' },
      { name: 'x', vus: 5, duration: '10s', stages: [{ duration: '1s', target: 1 }] },
      { name: 'x', stages: [] },
    ]) {
      const response = await ts.request('/api/v1/configs', { method: 'POST', token: alice, json });
      expect(response.status, JSON.stringify(json)).toBe(400);
    }
    expect((await ts.request(`/api/v1/configs/${config.id}`, { token: bob })).status).toBe(404);
    expect((await ts.request(`/api/v1/configs/${config.id}`, { method: 'DELETE', token: alice })).status).toBe(204);
    expect((await ts.request(`/api/v1/configs/${config.id}`, { token: alice })).status).toBe(404);
  });
});
