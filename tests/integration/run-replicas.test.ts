/**
 * Two replicas on one PostgreSQL server as real processes, an agent process behind a small TCP balancer: a run
 * started on B executes on A's agent, streams on B see every line and the end, cancel on B stops the tool on A's
 * agent, and after kill -9 of A the agent reconnects to B and its run ends there. Tokens from A work on B.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse, readWebSocket } from '../helpers/stream-clients.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

let postgres: PostgresServer | null = null;
let a: ServiceProcess;
let b: ServiceProcess;
let proxy: TcpProxy;
let agent: AgentProcess;
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
      AGENT_GRACE_SECONDS: '20',
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
  agent = startAgentProcess({ serverUrl: proxy.url, token, hostname: 'replicated-gen' });
  await agent.registered();
}, 120_000);

afterAll(async () => {
  await agent?.kill('SIGKILL');
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

const task = (server: ServiceProcess, id: string) => call(server, `/tasks/${id}`).then((r) => r.json() as Promise<Record<string, unknown>>);
const machines = (server: ServiceProcess) => call(server, '/machines').then((r) => r.json() as Promise<{ hostname: string; status: string }[]>);

async function startOn(server: ServiceProcess, script: string) {
  const created = await call(server, '/tests', { method: 'POST', json: { name: 'replicated', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const started = await call(server, '/tasks', { method: 'POST', json: { testId } });
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

test('a token from A works on B, and B shows A\'s agent online', async () => {
  if (!requirePostgres()) return;
  expect((await call(b, '/auth/me')).status).toBe(200);
  const list = await waitFor(() => machines(b), (l) => l.some((m) => m.hostname === 'replicated-gen' && m.status === 'online'));
  expect(list.find((m) => m.hostname === 'replicated-gen')!.status).toBe('online');
}, 30_000);

test('a run started on B runs on A\'s agent; SSE and WebSocket on B see every line in order, then the end', async () => {
  if (!requirePostgres()) return;
  const id = await startOn(b, '#!/bin/sh\nsleep 1\nfor i in $(seq 1 200); do echo "line $i"; done\n');
  const sse = readSse(await fetch(`${b.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${jwtA}` } }));
  const ws = readWebSocket(`${b.url.replace(/^http/, 'ws')}/api/v1/tasks/${id}/ws`, jwtA);
  const expected = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
  const { events } = await sse;
  expect(events.filter((e) => e.data.type === 'log').map((e) => e.data.text)).toEqual(expected);
  expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
  const socket = await ws;
  expect(socket.messages.filter((m) => m.type === 'log').map((m) => m.text)).toEqual(expected);
  expect(socket.messages.at(-1)).toMatchObject({ type: 'done' });
  expect(socket.code).toBe(1000);
}, 60_000);

test('cancel on B stops the tool on A\'s agent', async () => {
  if (!requirePostgres()) return;
  const pidFile = join(scratch, 'pid');
  const id = await startOn(b, `#!/bin/sh\nsleep 300 &\necho "$!" > ${pidFile}\nwait\n`);
  await waitFor(async () => existsSync(pidFile), Boolean);
  const pid = Number((await readFile(pidFile, 'utf8')).trim());
  expect((await call(b, `/tasks/${id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await task(a, id)).status).toBe('cancelled');
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitFor(async () => alive(), (living) => !living, 15_000);
  await waitFor(() => machines(b), (l) => l.every((m) => m.status === 'online'));
}, 60_000);

test('kill -9 of A: the agent reconnects to B through the balancer and its run finishes there', async () => {
  if (!requirePostgres()) return;
  const id = await startOn(b, '#!/bin/sh\necho before\nsleep 4\necho after\n');
  await waitFor(() => task(b, id), (t) => t.status === 'running');
  await Bun.sleep(500);
  process.kill(a.pid, 'SIGKILL');
  proxy.switchTo(b.port);
  await agent.registered(2, 30_000);
  const final = await waitFor(() => task(b, id), (t) => t.status !== 'running', 30_000);
  expect(final.status).toBe('completed');
  const { events } = await readSse(await fetch(`${b.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${jwtA}` } }));
  expect(events.filter((e) => e.data.type === 'log').map((e) => e.data.text)).toEqual(['before', 'after']);
  await waitFor(() => machines(b), (l) => l.every((m) => m.status === 'online'));
}, 90_000);
