/**
 * The ordinary sequences that used to leave runs stuck, each as a regression test against the real service, a real
 * in-process agent (custom tool) and, where a misbehaving agent is needed, a raw socket speaking the agent protocol.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptLines } from '../helpers/script-log.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { readSse } from '../helpers/stream-clients.ts';
import type { TestService } from '../helpers/test-service.ts';

let fixture: ServiceWithAgent;
let ts: TestService;
let token: string;
let scratch: string;

beforeAll(async () => {
  fixture = await startServiceWithAgent('regressions', { env: { AGENT_GRACE_SECONDS: '2' } });
  ({ ts, token } = fixture);
  scratch = await mkdtemp(join(tmpdir(), 'loadplane-regressions-'));
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const api = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  ts.request(`/api/v1${path}`, { method: init.method ?? 'GET', token: init.token ?? token, ...(init.json !== undefined ? { json: init.json } : {}) });
const sql = <T>(text: string, params: unknown[] = []) =>
  (ts.service.database.fork() as unknown as { execute(s: string, p: unknown[]): Promise<T[]> }).execute(text, params);

async function createTest(script: string, name = 'regression') {
  const response = await api('/tests', { method: 'POST', json: { name, tool: 'custom', script } });
  return ((await response.json()) as { id: string }).id;
}

async function start(testId: string, extra: Record<string, unknown> = {}, as = token) {
  const response = await api('/tasks', { method: 'POST', json: { testId, ...extra }, token: as });
  return { status: response.status, body: (await response.json()) as { id: string; error?: string; message?: string } };
}

const task = async (id: string, as = token) => (await (await api(`/tasks/${id}`, { token: as })).json()) as Record<string, unknown>;

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await Bun.sleep(50);
  }
}

const machines = async () => (await (await api('/machines')).json()) as { id: string; status: string }[];

describe('sequences that used to get stuck', () => {
  test('cancel a running run and start another at once on the same machine: it runs, after the first ended', async () => {
    const long = await createTest('#!/bin/sh\necho started\nsleep 30\n');
    const first = (await start(long)).body.id;
    await until(() => task(first), (t) => t.status === 'running');
    const cancelled = await api(`/tasks/${first}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(204);
    expect((await task(first)).status).toBe('cancelled');
    const second = (await start(await createTest('#!/bin/sh\necho second run\n'))).body.id;
    const done = await until(() => task(second), (t) => t.status === 'completed');
    expect(done.status).toBe('completed');
    // No double booking: the second assignment began after the first one was confirmed stopped.
    const rows = await sql<{ task_id: string; created_at: string; finished_at: string | null }>(
      'select task_id, created_at, finished_at from task_assignments where task_id in (?, ?)',
      [first, second],
    );
    const a = rows.find((r) => r.task_id === first)!;
    const b = rows.find((r) => r.task_id === second)!;
    expect(a.finished_at).not.toBeNull();
    expect(new Date(b.created_at).getTime()).toBeGreaterThanOrEqual(new Date(a.finished_at!).getTime());
    await until(machines, (list) => list.every((m) => m.status === 'online'));
  }, 60_000);

  test('following the stream right after POST /tasks shows every line from the first', async () => {
    const script = '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i"; done\n';
    const id = (await start(await createTest(script))).body.id;
    const { events } = await readSse(await fetch(`${ts.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${token}` } }));
    const lines = events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
    expect(scriptLines(lines)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`));
    // From the run's first line on, the agent's progress lines (a slow sandbox start) numbered with the script's.
    expect(events.map((e) => e.id).filter((x) => x !== 'end')).toEqual(Array.from({ length: lines.length }, (_, i) => String(i + 1)));
    expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
  }, 60_000);

  test('a NUL byte and invalid UTF-8 are stored replaced, and no line of the batch is lost', async () => {
    const script = "#!/bin/sh\necho before\nprintf 'x\\000y\\n'\nprintf 'bad \\377\\376 bytes\\n'\necho after\n";
    const id = (await start(await createTest(script))).body.id;
    await until(() => task(id), (t) => t.status === 'completed');
    const { events } = await readSse(await fetch(`${ts.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}` } }));
    const lines = scriptLines(events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text)));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('before');
    expect(lines[1]).toBe('x\uFFFDy');
    expect(lines[2]).toStartWith('bad ');
    expect(lines[2]).toContain('\uFFFD');
    expect(lines[3]).toBe('after');
  }, 60_000);

  test('cancel right after start: 204, and the tool never goes ahead', async () => {
    const marker = join(scratch, 'went-ahead');
    const id = (await start(await createTest(`#!/bin/sh\nsleep 1\ntouch ${marker}\n`))).body.id;
    expect((await api(`/tasks/${id}`, { method: 'DELETE' })).status).toBe(204);
    await Bun.sleep(2_000);
    expect(existsSync(marker)).toBe(false);
    expect((await task(id)).status).toBe('cancelled');
    await until(machines, (list) => list.every((m) => m.status === 'online'));
  }, 60_000);

  test('a pending task past its pending timeout fails with a reason; nothing waits forever', async () => {
    // Busy past the test's end (cancelled below): the machine cannot free up and take the waiting task instead.
    const busy = (await start(await createTest('#!/bin/sh\nsleep 300\n'))).body.id;
    await until(() => task(busy), (t) => t.status === 'running');
    const waiting = (await start(await createTest('#!/bin/sh\necho never\n'), { pendingTimeout: 1 })).body.id;
    const failed = await until(() => task(waiting), (t) => t.status !== 'pending', 20_000);
    expect(failed.status).toBe('failed');
    expect(String(failed.error)).toContain('pending timeout');
    await api(`/tasks/${busy}`, { method: 'DELETE' });
    await until(machines, (list) => list.every((m) => m.status === 'online'));
  }, 60_000);
});

describe('fair dispatch', () => {
  test('a workspace with 1,000 pending tasks (its cap) does not delay another workspace; past the cap 429', async () => {
    const crowd = await ts.apiToken('crowded-tenant');
    const crowdTest = ((await (await api('/tests', { method: 'POST', token: crowd.token, json: { name: 'c', tool: 'custom', script: 'echo hi' } })).json()) as { id: string }).id;
    const workspaceId = ((await (await api('/workspace', { token: crowd.token })).json()) as { id: string }).id;
    // 999 rows straight into the table (the API would take a while), then the last one through it.
    await sql(
      `insert into tasks (id, public_id, workspace_id, test_id, status, transport, requested_machine_ids, machine_count, log_lines, log_truncated, log_seq, created_at)
       select gen_random_uuid(), 'c' || lpad(g::text, 7, '0'), ?, ?, 'pending', 'sse', '[]', 1, 0, false, 0, now() - interval '1 hour' + g * interval '1 ms'
       from generate_series(1, 999) g`,
      [workspaceId, crowdTest],
    );
    expect((await start(crowdTest, {}, crowd.token)).status).toBe(202);
    const over = await start(crowdTest, {}, crowd.token);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('too_many_pending_tasks');
    // Our workspace's run is dispatched although 1,000 older tasks wait elsewhere (a starved one would never be; the bound
    // is wide for a loaded machine).
    const id = (await start(await createTest('#!/bin/sh\necho fair\n'))).body.id;
    const done = await until(() => task(id), (t) => t.status === 'completed', 40_000);
    expect(done.status).toBe('completed');
    expect((await task((await sql<{ id: string }>('select id from tasks where workspace_id = ? limit 1', [workspaceId]))[0]!.id, crowd.token)).status).toBe('pending');
    await sql(`update tasks set status = 'cancelled', finished_at = now() where workspace_id = ? and status = 'pending'`, [workspaceId]);
  }, 60_000);
});

/** A raw agent socket: the real protocol, driven by hand. */
async function rawAgent(hostname: string, agentToken: string) {
  const socket = new WebSocket(`${ts.url.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${agentToken}` } } as unknown as string[]);
  const inbox: Record<string, unknown>[] = [];
  socket.addEventListener('message', (event) => inbox.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error('agent socket failed')));
  });
  const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
  const next = (type: string) => until(async () => inbox.find((m) => m.type === type), (m) => m !== undefined) as Promise<Record<string, unknown>>;
  send({ type: 'hello', protocol: 1, hostname, ip_address: '127.0.0.1', os: 'linux', arch: 'x86_64', cpu_cores: 1, memory_gb: 1, agent_version: 't', tools: ['custom'], running: [] });
  const welcome = await next('welcome');
  return { socket, inbox, send, next, machineId: String(welcome.machineId) };
}

describe('agents that misbehave', () => {
  test('a summary that does not decode fails that assignment with a reason; DELETE and the machinery still work', async () => {
    const owner = await ts.apiToken('bad-reporter');
    const agentToken = ((await (await api('/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'a', scopes: ['machines:write', 'runs:write'] } })).json()) as { token: string }).token;
    const agent = await rawAgent('bad-reporter-host', agentToken);
    const testId = ((await (await api('/tests', { method: 'POST', token: owner.token, json: { name: 'b', tool: 'custom', script: 'echo x' } })).json()) as { id: string }).id;
    const id = (await start(testId, {}, owner.token)).body.id;
    const assign = (await agent.next('assign')).assignment as { assignmentId: string };
    agent.send({ type: 'started', assignmentId: assign.assignmentId });
    agent.send({
      type: 'finished',
      assignmentId: assign.assignmentId,
      status: 'completed',
      exitCode: 0,
      summary: { histogram: { v: 1, buckets: '!!not base64!!', count: 3, min: 1, max: 2, sum: 3 }, requests: 3, errors: 0, startedAt: 1, endedAt: 2 },
    });
    const failed = await until(() => task(id, owner.token), (t) => t.status !== 'running');
    expect(failed.status).toBe('failed');
    expect(String(failed.error)).toContain('invalid summary');
    expect((await api(`/tasks/${id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    // The machine is free again and takes the next run.
    const next = (await start(testId, {}, owner.token)).body.id;
    await until(async () => agent.inbox.filter((m) => m.type === 'assign').length, (n) => n === 2);
    expect((await task(next, owner.token)).status).toBe('running');
    await api(`/tasks/${next}`, { method: 'DELETE', token: owner.token });
    agent.socket.close();
  }, 60_000);

  test('an assign that never reached the agent is sent again when it says hello; a second hello is refused', async () => {
    const owner = await ts.apiToken('lossy-agent');
    const agentToken = ((await (await api('/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'a', scopes: ['machines:write', 'runs:write'] } })).json()) as { token: string }).token;
    const first = await rawAgent('lossy-host', agentToken);
    first.send({ type: 'hello', protocol: 1, hostname: 'other', ip_address: '127.0.0.1', os: 'linux', arch: 'x86_64', cpu_cores: 1, memory_gb: 1, agent_version: 't', tools: ['custom'], running: [] });
    const refusal = (await first.next('error')) as { message: string };
    expect(refusal.message).toContain('hello was already received');
    const testId = ((await (await api('/tests', { method: 'POST', token: owner.token, json: { name: 'l', tool: 'custom', script: 'echo x' } })).json()) as { id: string }).id;
    const id = (await start(testId, {}, owner.token)).body.id;
    const lost = (await first.next('assign')).assignment as { assignmentId: string };
    // The agent drops the socket without ever acknowledging, then comes back knowing nothing of it.
    first.socket.close();
    const again = await rawAgent('lossy-host', agentToken);
    const resent = (await again.next('assign')).assignment as { assignmentId: string };
    expect(resent.assignmentId).toBe(lost.assignmentId);
    again.send({ type: 'started', assignmentId: resent.assignmentId });
    const empty = { histogram: { v: 1, buckets: '', count: 0, min: 0, max: 0, sum: 0 }, requests: 0, errors: 0, startedAt: 1, endedAt: 1 };
    again.send({ type: 'finished', assignmentId: resent.assignmentId, status: 'completed', exitCode: 0, summary: empty });
    expect((await until(() => task(id, owner.token), (t) => t.status === 'completed')).status).toBe('completed');
    const listed = (await (await api('/machines', { token: owner.token })).json()) as { hostname: string; status: string }[];
    expect(listed.map((m) => [m.hostname, m.status])).toEqual([['lossy-host', 'online']]);
    again.socket.close();
    await until(async () => ((await (await api('/machines', { token: owner.token })).json()) as { status: string }[])[0]!.status, (s) => s === 'offline');
  }, 60_000);
});

describe('revoked access', () => {
  test('revoking a token closes its open SSE stream and its agent socket', async () => {
    const owner = await ts.apiToken('revoking-owner');
    const mint = async (scopes: string[]) =>
      (await (await api('/api-tokens', { method: 'POST', token: owner.jwt, json: { name: scopes.join(' '), scopes } })).json()) as { id: string; token: string };
    const agentToken = await mint(['machines:write', 'runs:write']);
    const reader = await mint(['runs:read']);
    const agent = await rawAgent('revoked-host', agentToken.token);
    const closed = new Promise<number>((resolve) => agent.socket.addEventListener('close', (event) => resolve(event.code)));
    // The run outlasts the test: only the revocation can end the stream before the test's own timeout.
    const testId = ((await (await api('/tests', { method: 'POST', token: owner.token, json: { name: 'r', tool: 'custom', script: 'sleep 300' } })).json()) as { id: string }).id;
    const id = (await start(testId, {}, owner.token)).body.id;
    // The stream is registered for re-checks before its headers go out (sseResponse starts it synchronously): once the
    // answer is here, a revocation reaches it.
    const response = await fetch(`${ts.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(response.status).toBe(200);
    const reading = readSse(response);
    expect((await api(`/api-tokens/${reader.id}`, { method: 'DELETE', token: owner.jwt })).status).toBe(204);
    const { events, ended } = await reading;
    expect(ended).toBe(true);
    // Cut off by the revocation (its own event), not by the run.
    expect(events.at(-1)!.data).toMatchObject({ type: 'error', message: 'stream closed: access was revoked' });
    expect((await api(`/api-tokens/${agentToken.id}`, { method: 'DELETE', token: owner.jwt })).status).toBe(204);
    expect(await closed).toBe(4401);
    await api(`/tasks/${id}`, { method: 'DELETE', token: owner.token });
  }, 60_000);
});
