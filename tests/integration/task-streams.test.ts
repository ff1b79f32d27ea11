/** SSE and WebSocket over real sockets: ordering, the terminal event, close code, late join, resume, refused handshakes. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { scriptLines } from '../helpers/script-log.ts';
import { readSse, readWebSocket, upgradeAttempt } from '../helpers/stream-clients.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { createRunGate } from '../helpers/run-gate.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import type { TestService } from '../helpers/test-service.ts';

let ts: TestService;
let token: string;
let fixture: ServiceWithAgent;

const counting = (lines: number, delayMs: number) =>
  `#!/bin/sh\ni=1\nwhile [ $i -le ${lines} ]; do echo "line $i"; i=$((i+1)); ${delayMs ? `sleep ${delayMs / 1000}; ` : ''}done\n`;

async function startRun(script: string, transport = 'sse') {
  const test = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'stream', tool: 'custom', script } });
  const { id: testId } = (await test.json()) as { id: string };
  const response = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, transport } });
  expect(response.status).toBe(202);
  return (await response.json()) as { id: string; public_id: string; status: string; stream: Record<string, { url: string }> };
}

async function waitForStatus(id: string, status: string) {
  let task = { status: '' };
  await waitFor(async () => (task = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as { status: string }).status === status, 30_000, `task ${id} to become ${status}`);
  return task;
}

const sse = (id: string, headers: Record<string, string> = {}) =>
  fetch(`${ts.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${token}`, ...headers } });

/** The script's lines of a run's log events: a slow sandbox start on a busy machine can add the agent's progress lines. */
const printedLines = (events: Record<string, unknown>[]) => scriptLines(events.filter((e) => e.type === 'log').map((e) => String(e.text)));

beforeAll(async () => {
  fixture = await startServiceWithAgent('streamer');
  ({ ts, token } = fixture);
}, 60_000);

/** Run after the service stops: a gate left shut keeps its run waiting until then. */
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await fixture?.stop();
  for (const cleanup of cleanups) await cleanup();
});

describe('SSE', () => {
  test('every line in order, then done with the final task, then the stream ends', async () => {
    const run = await startRun(counting(300, 0));
    const { events, ended } = await readSse(await sse(run.id));
    expect(ended).toBe(true);
    expect(printedLines(events.map((e) => e.data))).toEqual(Array.from({ length: 300 }, (_, i) => `line ${i + 1}`));
    const ids = events.filter((e) => e.data.type === 'log').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const last = events.at(-1)!;
    expect(last.data.type).toBe('done');
    expect(last.data.task).toMatchObject({ id: run.id, status: 'completed' });
  }, 30_000);

  test('late join: a finished run answers one done event built from the record', async () => {
    const run = await startRun(counting(3, 0));
    await waitForStatus(run.id, 'completed');
    const { events, ended } = await readSse(await sse(run.public_id));
    expect(ended).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ type: 'done', task: { id: run.id, status: 'completed' } });
  }, 30_000);

  test('resume with Last-Event-ID continues after the last line seen, without gaps or repeats', async () => {
    const run = await startRun(counting(120, 10));
    const first = await readSse(await sse(run.id), (events) => events.filter((e) => e.data.type === 'log').length >= 30);
    const lastId = first.events.at(-1)!.id!;
    const rest = await readSse(await sse(run.id, { 'last-event-id': lastId }));
    expect(printedLines([...first.events, ...rest.events].map((e) => e.data))).toEqual(Array.from({ length: 120 }, (_, i) => `line ${i + 1}`));
    expect(rest.events.at(-1)!.data.type).toBe('done');
  }, 30_000);

  test("unknown, foreign and unauthenticated: 404/401 with the error body", async () => {
    const other = await ts.apiToken('stranger');
    const run = await startRun(counting(1, 0));
    const foreign = await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 'not_found', message: 'task not found' });
    expect((await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`)).status).toBe(401);
  });
});

describe('placement', () => {
  test('a second run waits, pending, while the only machine is busy, then runs', async () => {
    // The first run holds the machine until the checks below are done, however long they take.
    const checked = await createRunGate();
    cleanups.push(checked.remove);
    const first = await startRun(`#!/bin/sh\n${checked.wait}\necho first\n`);
    // Placement follows the answer to POST /tasks; wait for it, so "busy" below is not a race with the dispatcher.
    await waitForStatus(first.id, 'running');
    const second = await startRun('#!/bin/sh\necho second\n');
    const waiting = (await (await ts.request(`/api/v1/tasks/${second.id}`, { token })).json()) as { status: string; machine_ids: string[] };
    expect(waiting.status).toBe('pending');
    expect(waiting.machine_ids).toEqual([]);
    const machines = (await (await ts.request('/api/v1/machines', { token })).json()) as { id: string; status: string }[];
    expect(machines[0]!.status).toBe('busy');
    const busyDelete = await ts.request(`/api/v1/machines/${machines[0]!.id}`, { method: 'DELETE', token });
    expect(busyDelete.status).toBe(409);
    expect(((await busyDelete.json()) as { message: string }).message).toContain('is running or stopping a task');
    await checked.open();
    await waitForStatus(first.id, 'completed');
    const done = await waitForStatus(second.id, 'completed');
    expect((done as unknown as { machine_ids: string[] }).machine_ids).toEqual([machines[0]!.id]);
  }, 30_000);
});

describe('WebSocket', () => {
  test('scopes are checked before the upgrade: the task stream needs runs:read, the agent socket machines:write and runs:write', async () => {
    const run = await startRun(counting(1, 0));
    const owner = await ts.createUser('scoper');
    await ts.request('/api/v1/auth/me', { token: owner });
    const scoped = async (scopes: string[]) => {
      const response = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: scopes.join('+'), scopes } });
      return ((await response.json()) as { token: string }).token;
    };
    const wsBase = ts.url.replace('http', 'ws');
    const testsOnly = await upgradeAttempt(`${wsBase}/api/v1/tasks/${run.id}/ws`, await scoped(['tests:read']));
    expect(testsOnly.status).toBe(403);
    expect(((await testsOnly.json()) as { error: string }).error).toBe('insufficient_scope');
    const machinesOnly = await upgradeAttempt(`${wsBase}/api/v1/agent`, await scoped(['machines:write']));
    expect(machinesOnly.status).toBe(403);
    expect(((await machinesOnly.json()) as { message: string }).message).toContain('runs:write');
    expect((await upgradeAttempt(`${wsBase}/api/v1/agent`)).status).toBe(401);
  });

  test('one text message per event in order; close 1000 after the terminal one; the start answer advertises the URL', async () => {
    const run = await startRun(counting(200, 0), 'ws');
    const [machineId] = Object.keys(run.stream);
    expect(run.stream[machineId!]!.url).toBe(`${ts.url.replace('http', 'ws')}/api/v1/tasks/${run.id}/ws`);
    const { messages, code } = await readWebSocket(run.stream[machineId!]!.url, token);
    expect(code).toBe(1000);
    expect(printedLines(messages)).toEqual(Array.from({ length: 200 }, (_, i) => `line ${i + 1}`));
    expect(messages.at(-1)).toMatchObject({ type: 'done', task: { status: 'completed' } });
  }, 30_000);

  test('the agent socket answers malformed and invalid messages with an error naming the problem', async () => {
    const socket = new WebSocket(`${ts.url.replace('http', 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
    const replies: { type: string; message: string }[] = [];
    socket.addEventListener('message', (event) => replies.push(JSON.parse(String(event.data))));
    await new Promise((resolve) => socket.addEventListener('open', resolve));
    socket.send('not json');
    socket.send(JSON.stringify({ type: 'hello', protocol: 1 }));
    await waitFor(() => replies.length >= 2, 30_000, 'two error replies');
    socket.close();
    expect(replies[0]).toEqual({ type: 'error', message: 'messages must be JSON' });
    expect(replies[1]!.type).toBe('error');
    expect(replies[1]!.message).toStartWith('invalid message');
  });

  test('late join over WebSocket: one done message, then close 1000', async () => {
    const run = await startRun(counting(2, 0));
    await waitForStatus(run.id, 'completed');
    const { messages, code } = await readWebSocket(`${ts.url.replace('http', 'ws')}/api/v1/tasks/${run.public_id}/ws`, token);
    expect(code).toBe(1000);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ type: 'done' });
  }, 30_000);

  test('an unknown task is refused before the upgrade with 404 JSON; no token with 401 JSON', async () => {
    const wsBase = `${ts.url.replace('http', 'ws')}/api/v1/tasks`;
    const unknown = await upgradeAttempt(`${wsBase}/${crypto.randomUUID()}/ws`, token);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'task not found' });
    const anonymous = await upgradeAttempt(`${wsBase}/${crypto.randomUUID()}/ws`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('unauthorized');
  });
});
