/**
 * Two replicas on one PostgreSQL server as real processes, an agent process behind a small TCP balancer (on A) and one
 * dialling B directly: a run started on B executes on A's agent, streams on B see every line and the end, cancel on B
 * stops the tool on A's agent, and after kill -9 of A the agent reconnects to B and its run ends there while B's own
 * streams and sockets carry on. Tokens from A work on B; B shows A's agent online for longer than a presence lease.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { processAlive, processTreeOf, uniqueSleep } from '../helpers/process-probes.ts';
import { scriptLines } from '../helpers/script-log.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse, readWebSocket } from '../helpers/stream-clients.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const BALANCED = 'via-balancer';
const ON_B = 'on-b';
let postgres: PostgresServer | null = null;
let a: ServiceProcess;
let b: ServiceProcess;
let proxy: TcpProxy;
const agents: Record<string, AgentProcess> = {};
let scratch: string;
let jwtA: string;
const dataDirs: string[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  if (!postgres) return;
  scratch = await mkdtemp(join(tmpdir(), 'loadplane-run-replicas-'));
  const env = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-replica-'));
    dataDirs.push(dataDir);
    return {
      DATABASE_URL: postgres!.url,
      DATA_DIR: dataDir,
      LOCAL_AGENT: 'false',
      BOOTSTRAP_ADMIN_USERNAME: 'admin',
      BOOTSTRAP_ADMIN_PASSWORD: 'replicas-admin-password',
      AUTH_CLIENT_SECRET: 'replicas-client-secret',
      AGENT_GRACE_SECONDS: '3',
      PUBLIC_URL: 'http://loadplane.test:8080',
    };
  };
  // One after the other: the first applies the migrations.
  a = await startServiceProcess({ env: await env() });
  b = await startServiceProcess({ env: await env() });
  proxy = await startTcpProxy(a.port);
  jwtA = await passwordGrant(a.url, { username: 'admin', password: 'replicas-admin-password', clientSecret: 'replicas-client-secret' });
  const created = await call(a, '/api-tokens', { method: 'POST', json: { name: 'agent', scopes: ['machines:write', 'runs:write'] } });
  const { token } = (await created.json()) as { token: string };
  agents[BALANCED] = startAgentProcess({ serverUrl: proxy.url, token, hostname: BALANCED });
  agents[ON_B] = startAgentProcess({ serverUrl: b.url, token, hostname: ON_B });
  for (const agent of Object.values(agents)) await agent.registered();
}, 120_000);

afterAll(async () => {
  for (const agent of Object.values(agents)) await agent.kill('SIGKILL');
  await proxy?.close();
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
  for (const dir of [...dataDirs, scratch]) if (dir) await rm(dir, { recursive: true, force: true });
});

function requirePostgres() {
  if (postgres) return true;
  if (process.env.CI) throw new Error(`CI must run the replica suite: ${POSTGRES_SKIP_MESSAGE}`);
  console.warn(POSTGRES_SKIP_MESSAGE);
  return false;
}

function call(server: ServiceProcess, path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${jwtA}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await Bun.sleep(100);
  }
}

type Machine = { id: string; hostname: string; status: string };
const task = (server: ServiceProcess, id: string) => call(server, `/tasks/${id}`).then((r) => r.json() as Promise<Record<string, unknown>>);
const machines = (server: ServiceProcess) => call(server, '/machines').then((r) => r.json() as Promise<Machine[]>);
const statusOf = (list: Machine[], hostname: string) => list.find((m) => m.hostname === hostname)?.status;
const sse = (server: ServiceProcess, id: string, query = '') =>
  fetch(`${server.url}/api/v1/tasks/${id}/log-stream${query}`, { headers: { authorization: `Bearer ${jwtA}` } }).then((r) => readSse(r));
/** The script's lines of a run's log events: quiet spells (a `sleep`, A's death) add the agent's progress lines. */
const printedLines = (messages: Record<string, unknown>[]) => scriptLines(messages.filter((m) => m.type === 'log').map((m) => String(m.text)));
const logTexts = (events: { data: Record<string, unknown> }[]) => printedLines(events.map((e) => e.data));

/** Starts a custom test on `server`, on the machine of the agent behind the balancer. */
async function startOn(server: ServiceProcess, script: string) {
  const machine = (await machines(server)).find((m) => m.hostname === BALANCED)!;
  const created = await call(server, '/tests', { method: 'POST', json: { name: 'replicated', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const started = await call(server, '/tasks', { method: 'POST', json: { testId, machineIds: [machine.id] } });
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

test('a token from A works on B', async () => {
  if (!requirePostgres()) return;
  const me = await call(b, '/auth/me');
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ preferred_username: 'admin' });
}, 30_000);

test('B shows the agent connected to A online, and still online after a presence lease has run out', async () => {
  if (!requirePostgres()) return;
  // The lease a replica renews for the sockets it holds is 15 s: sample beyond it, on B and on A alike.
  const until = Date.now() + 17_000;
  while (Date.now() < until) {
    const [onA, onB] = [await machines(a), await machines(b)];
    expect([statusOf(onB, BALANCED), statusOf(onA, BALANCED)]).toEqual(['online', 'online']);
    expect(statusOf(onA, ON_B)).toBe('online');
    await Bun.sleep(500);
  }
}, 30_000);

test('a run started on B runs on A\'s agent; SSE and WebSocket on B see every line in order, then the end', async () => {
  if (!requirePostgres()) return;
  const id = await startOn(b, '#!/bin/sh\nsleep 1\nfor i in $(seq 1 200); do echo "line $i"; done\n');
  const stream = sse(b, id);
  const ws = readWebSocket(`${b.url.replace(/^http/, 'ws')}/api/v1/tasks/${id}/ws`, jwtA);
  const expected = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
  // B holds no socket of that agent: the assign has to reach A for the run to leave pending.
  await waitFor(() => task(b, id), (t) => t.status !== 'pending', 15_000);
  const { events, ended } = await stream;
  expect(logTexts(events)).toEqual(expected);
  expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
  expect(ended).toBe(true);
  const socket = await ws;
  expect(printedLines(socket.messages)).toEqual(expected);
  expect(socket.messages.at(-1)).toMatchObject({ type: 'done', task: { status: 'completed' } });
  expect(socket.code).toBe(1000);
  expect((await task(a, id)).status).toBe('completed');
}, 60_000);

test('cancel on B stops the tool on A\'s agent', async () => {
  if (!requirePostgres()) return;
  // The tool runs in its own pid namespace (the sandbox): find its sleep from outside by a unique argument.
  const marker = uniqueSleep();
  const id = await startOn(b, `#!/bin/sh\necho started\nsleep ${marker} &\nwait\n`);
  const [pid] = await waitFor(async () => processTreeOf(marker), (found) => found.length === 2);
  expect(processAlive(pid)).toBe(true);
  // Open before the cancel (headers back: B has looked at the run and seen it going), else a stream B gets to after
  // the cancel rightly answers the ended run with one `done` and no lines.
  const opened = await fetch(`${b.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${jwtA}` } });
  const stream = readSse(opened);
  expect((await call(b, `/tasks/${id}`, { method: 'DELETE' })).status).toBe(204);
  await waitFor(async () => processAlive(pid), (alive) => !alive, 15_000);
  const { events } = await stream;
  expect(logTexts(events)).toEqual(['started']);
  expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'cancelled' } });
  expect((await task(a, id)).status).toBe('cancelled');
  await waitFor(() => machines(b), (l) => l.every((m) => m.status === 'online'));
}, 60_000);

test('a machine deleted on B: the agent connected to A is cut off at once and stops for good', async () => {
  if (!requirePostgres()) return;
  const created = await call(a, '/api-tokens', { method: 'POST', json: { name: 'doomed', scopes: ['machines:write', 'runs:write'] } });
  const { token } = (await created.json()) as { token: string };
  const doomed = startAgentProcess({ serverUrl: a.url, token, hostname: 'doomed-on-a' });
  agents['doomed-on-a'] = doomed;
  await doomed.registered();
  const machine = await waitFor(
    async () => (await machines(b)).find((m) => m.hostname === 'doomed-on-a'),
    (m) => m?.status === 'online',
  );
  expect((await call(b, `/machines/${machine!.id}`, { method: 'DELETE' })).status).toBe(204);
  // Wide: an agent that kept retrying instead would still be running, however slow the machine.
  expect(await Promise.race([doomed.exited(), Bun.sleep(30_000).then(() => 'still running')])).toBe(3);
  expect((await machines(a)).some((m) => m.hostname === 'doomed-on-a')).toBe(false);
}, 60_000);

test('kill -9 of A: the agent reconnects to B through the balancer and its run finishes there; B\'s own sockets stay', async () => {
  if (!requirePostgres()) return;
  const id = await startOn(b, '#!/bin/sh\necho before\nsleep 4\necho after\n');
  await waitFor(() => task(b, id), (t) => t.status === 'running');
  // A stream on B, opened before A dies: A's death must not touch it.
  const following = sse(b, id);
  await Bun.sleep(500);
  await a.kill('SIGKILL');
  proxy.switchTo(b.port);
  await agents[BALANCED]!.registered(2, 30_000);
  const final = await waitFor(() => task(b, id), (t) => t.status !== 'running', 30_000);
  expect(final.status).toBe('completed');
  const live = await following;
  expect(logTexts(live.events)).toEqual(['before', 'after']);
  expect(live.events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
  const { events } = await sse(b, id, '?after=0');
  expect(logTexts(events)).toEqual(['before', 'after']);
  // The agent that dialled B directly kept its one socket.
  expect(agents[ON_B]!.output().match(/agent registered/g)).toHaveLength(1);
  const list = await waitFor(() => machines(b), (l) => l.every((m) => m.status === 'online'));
  expect(list.map((m) => m.hostname).sort()).toEqual([BALANCED, ON_B].sort());
}, 90_000);
