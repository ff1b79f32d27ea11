/**
 * A pending task says why it waits: `pending_reason` in the 202 answer, GET and the list (no machine online; online
 * machines without the tool, with the agent's own words on how to install it; a named machine offline; busy machines
 * with the count of tasks ahead), null once it runs and after it ends; the SSE stream shows it as a comment and again
 * when it changes (a real agent process coming online without k6); the server log says it once per cause.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Logger } from '../../core/kernel/logger.ts';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { createProtocolAgent, type ProtocolAgent } from '../helpers/protocol-agent.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort } from '../helpers/service-process.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { openRawStream } from '../helpers/stream-clients.ts';

/** Every line the service logs, with the bindings of the logger that wrote it. */
const logged: { message: string; fields: Record<string, unknown> }[] = [];
function capturingLogger(bindings: Record<string, unknown> = {}): Logger {
  const write = (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields: { ...bindings, ...fields } });
  return { debug: write, info: write, warn: write, error: write, child: (more) => capturingLogger({ ...bindings, ...more }) };
}
const waitingLines = (taskId: string) => logged.filter((line) => line.message === 'task waiting' && line.fields.task_id === taskId);

let ts: TestService;
const agents: ProtocolAgent[] = [];
const processes: AgentProcess[] = [];

beforeAll(async () => {
  ts = await startTestService({ port: await freePort(), boot: { logger: capturingLogger() } });
  await ts.listen();
}, 60_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  for (const agent of processes) await agent.kill('SIGKILL');
  await ts?.stop();
});

type Task = { id: string; status: string; pending_reason: string | null; error: string | null };

async function workspace(username: string) {
  const { token, jwt } = await ts.apiToken(username);
  const api = async <T>(path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await ts.request(`/api/v1${path}`, { method: init.method ?? 'GET', token, ...(init.json !== undefined ? { json: init.json } : {}) });
    return { status: response.status, body: (response.status === 204 ? null : await response.json()) as T };
  };
  const createTest = async (tool: string, script: string) => (await api<{ id: string }>('/tests', { method: 'POST', json: { name: `${tool} test`, tool, script } })).body.id;
  const start = async (testId: string, extra: Record<string, unknown> = {}) => {
    const started = await api<Task & { stream: unknown }>('/tasks', { method: 'POST', json: { testId, ...extra } });
    expect(started.status).toBe(202);
    return started.body;
  };
  const task = async (id: string) => (await api<Task>(`/tasks/${id}`)).body;
  return { token, jwt, api, createTest, start, task };
}

/** A raw SSE reader: the stream's text as received, comments included. */
const openStream = (taskId: string, token: string) => openRawStream(ts.url, taskId, token);

const k6Script = `import http from 'k6/http';\nexport default function () { http.get('http://127.0.0.1:9/'); }\n`;

test('no machine: the 202 answer, GET and the list say no machine of this workspace is online; logged once, not per pass', async () => {
  const ws = await workspace('reason-empty');
  const testId = await ws.createTest('custom', '#!/bin/sh\necho hi\n');
  const started = await ws.start(testId);
  expect(started.status).toBe('pending');
  expect(started.pending_reason).toBe('no machine of this workspace is online');
  expect((await ws.task(started.id)).pending_reason).toBe('no machine of this workspace is online');
  const listed = (await ws.api<Task[]>('/tasks')).body.find((t) => t.id === started.id)!;
  expect(listed.pending_reason).toBe('no machine of this workspace is online');

  // Two more starts: two more dispatch passes over the first task, which keeps its reason and its one log line.
  await ws.start(testId);
  await ws.start(testId);
  const lines = waitingLines(started.id);
  expect(lines).toHaveLength(1);
  expect(lines[0]!.fields).toMatchObject({ reason: 'no machine of this workspace is online', workspace_id: expect.any(String) });

  // Cancelled: null again, and the stream's done event carries the record as it ended.
  await ws.api(`/tasks/${started.id}`, { method: 'DELETE' });
  expect(await ws.task(started.id)).toMatchObject({ status: 'cancelled', pending_reason: null });
}, 60_000);

test('a task that waits past its pending timeout fails with the reason it waited for', async () => {
  const ws = await workspace('reason-timeout');
  const testId = await ws.createTest('custom', '#!/bin/sh\necho hi\n');
  const started = await ws.start(testId, { pendingTimeout: 1 });
  await waitFor(async () => (await ws.task(started.id)).status === 'failed', 30_000, 'the pending timeout');
  const failed = await ws.task(started.id);
  expect(failed.error).toMatch(/^no eligible machine became free within \d+ s \(pending timeout\): no machine of this workspace is online$/);
  expect(failed.pending_reason).toBeNull();
}, 60_000);

test('a named machine without an agent: "machine <name> is offline"', async () => {
  const ws = await workspace('reason-named');
  const machine = await ws.api<{ id: string }>('/machines', { method: 'POST', json: { name: 'gen-2', hostname: 'gen-2.example.test', ip_address: '10.0.0.2' } });
  expect(machine.status).toBe(201);
  const testId = await ws.createTest('custom', '#!/bin/sh\necho hi\n');
  const started = await ws.start(testId, { machineIds: [machine.body.id] });
  expect(started.pending_reason).toBe('machine gen-2 is offline');
  expect((await ws.task(started.id)).pending_reason).toBe('machine gen-2 is offline');
}, 60_000);

test('a busy machine: the count of tasks ahead, moving with the queue (logged once per cause); null once running and after the end', async () => {
  const ws = await workspace('reason-busy');
  const agent = createProtocolAgent({ origin: ts.url, token: await agentToken(ts, ws.jwt, 'busy agent'), hostname: 'busy-1', tools: ['custom'] });
  agents.push(agent);
  await agent.connect();
  const testId = await ws.createTest('custom', '#!/bin/sh\necho hi\n');
  const first = await ws.start(testId);
  // It went straight to the machine: nothing to wait for.
  expect(first.pending_reason).toBeNull();
  expect((await ws.task(first.id)).status).toBe('running');
  const waiting = [await ws.start(testId), await ws.start(testId), await ws.start(testId)];
  expect(waiting.map((t) => t.pending_reason)).toEqual(['waiting for a free machine', 'waiting for a free machine (1 task ahead)', 'waiting for a free machine (2 tasks ahead)']);
  const named = await ws.start(testId, { machineIds: [agent.machineId()] });
  expect(named.pending_reason).toBe('waiting for machine busy-1 to be free (3 tasks ahead)');

  /** Runs the task the agent holds to its end. */
  const finishHeld = async (taskId: string) => {
    await waitFor(() => agent.received.assigns.some((a) => a.taskId === taskId), 30_000, `the assignment of ${taskId}`);
    const assignment = agent.received.assigns.find((a) => a.taskId === taskId)!;
    agent.start(assignment.assignmentId);
    agent.report(assignment.assignmentId, 'completed');
    await waitFor(async () => (await ws.task(taskId)).status === 'completed', 30_000, `${taskId} to complete`);
  };
  await finishHeld(first.id);
  await waitFor(async () => (await ws.task(waiting[0]!.id)).status === 'running', 30_000, 'the next task to run');
  expect((await ws.task(waiting[0]!.id)).pending_reason).toBeNull();
  await waitFor(async () => (await ws.task(waiting[2]!.id)).pending_reason === 'waiting for a free machine (1 task ahead)', 30_000, 'the count to move');
  expect((await ws.task(waiting[1]!.id)).pending_reason).toBe('waiting for a free machine');
  expect((await ws.task(named.id)).pending_reason).toBe('waiting for machine busy-1 to be free (2 tasks ahead)');
  // The queue moved; the cause did not: still one line each.
  expect(waitingLines(waiting[2]!.id)).toHaveLength(1);

  for (const task of [...waiting, named]) await finishHeld(task.id);
  for (const task of [first, ...waiting, named]) expect(await ws.task(task.id)).toMatchObject({ status: 'completed', pending_reason: null });
  // The server log tells each run's start and end once, the end with its figures.
  for (const task of [first, ...waiting, named]) {
    await waitFor(() => logged.some((line) => line.message === 'run finished' && line.fields.task_id === task.id), 30_000, `the end of ${task.id} logged`);
    expect(logged.filter((line) => line.message === 'run started' && line.fields.task_id === task.id)).toHaveLength(1);
    const finished = logged.filter((line) => line.message === 'run finished' && line.fields.task_id === task.id);
    expect(finished).toHaveLength(1);
    expect(finished[0]!.fields).toMatchObject({ status: 'completed', requests: expect.any(Number), p95_ms: expect.any(Number) });
  }
}, 60_000);

test('behind a long queue (past what a dispatch pass looks at): said at the start, and kept up to date by the sweep', async () => {
  const ws = await workspace('reason-deep');
  const testId = await ws.createTest('custom', '#!/bin/sh\necho hi\n');
  const tasks: Task[] = [];
  // A pass looks at the 20 oldest pending tasks of a workspace: the 22nd is explained on its own at its start.
  for (let i = 0; i < 22; i++) tasks.push(await ws.start(testId));
  expect(tasks[21]!.pending_reason).toBe('no machine of this workspace is online');
  const agent = createProtocolAgent({ origin: ts.url, token: await agentToken(ts, ws.jwt, 'deep agent'), hostname: 'deep-1', tools: ['custom'] });
  agents.push(agent);
  await agent.connect();
  // The first runs; 20 tasks are ahead of the last, which no pass on the way looked at.
  let last: string | null = null;
  await waitFor(
    async () => (last = (await ws.task(tasks[21]!.id)).pending_reason) === 'waiting for a free machine (20 tasks ahead)',
    30_000,
    () => `the last task's reason to follow the queue (it says ${JSON.stringify(last)})`,
  );
  expect((await ws.task(tasks[0]!.id)).status).toBe('running');
  expect((await ws.task(tasks[20]!.id)).pending_reason).toBe('waiting for a free machine (19 tasks ahead)');
}, 60_000);

test('SSE: ": waiting: ..." when the stream opens, and the new reason when an agent without k6 comes online; no JSON event meanwhile', async () => {
  const ws = await workspace('reason-stream');
  const testId = await ws.createTest('k6', k6Script);
  const started = await ws.start(testId);
  expect(started.pending_reason).toBe('no machine of this workspace is online');
  const stream = openStream(started.id, ws.token);
  try {
    await waitFor(() => stream.text().includes(': waiting: no machine of this workspace is online\n\n'), 30_000, () => `the first reason in ${JSON.stringify(stream.text())}`);

    // A real agent whose k6 cannot be found: it says so in its hello, and the task quotes it.
    const agent = startAgentProcess({
      serverUrl: ts.url,
      token: await agentToken(ts, ws.jwt, 'stream agent'),
      hostname: 'no-k6-here',
      env: { K6_BIN: '/nonexistent/k6' },
    });
    processes.push(agent);
    await agent.registered();
    const changed = /: waiting: (no online machine offers k6: on no-k6-here, [^\n]+)\n\n/;
    await waitFor(() => changed.test(stream.text()), 30_000, () => `the changed reason in ${JSON.stringify(stream.text())}`);
    const reason = changed.exec(stream.text())![1]!;
    expect(reason).toContain('K6_BIN=/nonexistent/k6');
    expect(reason).toContain('install it with `bash scripts/install-engines k6`');
    expect((await ws.task(started.id)).pending_reason).toBe(reason);
    // Comments only: the JSON events are what they always were, and there is none while the task waits.
    expect(stream.text()).not.toContain('data:');
    expect(stream.text().match(/: waiting: /g)).toHaveLength(2);

    // Two more passes over it (two more starts): the same cause is neither streamed nor logged again.
    await ws.start(testId);
    await ws.start(testId);
    expect(stream.text().match(/: waiting: /g)).toHaveLength(2);
    expect(waitingLines(started.id).map((line) => line.fields.reason)).toEqual(['no machine of this workspace is online', reason]);

    // The end: the stream's done event carries the record, with no reason left.
    await ws.api(`/tasks/${started.id}`, { method: 'DELETE' });
    await stream.ended;
    const done = JSON.parse(stream.text().split('\n').find((line) => line.startsWith('data: '))!.slice(6)) as { type: string; task: Task };
    expect(done).toMatchObject({ type: 'done', task: { status: 'cancelled', pending_reason: null } });
  } finally {
    stream.close();
  }
}, 60_000);
