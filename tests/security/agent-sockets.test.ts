/** Agent sockets as an attacker meets them: a revoked or rotated agent token, or a deleted machine, cuts the agent off at once; an empty name is refused. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';

let dataDir: string;
let server: ServiceProcess;
let jwt: string;
const agents: AgentProcess[] = [];

async function api(path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

async function agentToken(name: string): Promise<{ id: string; token: string }> {
  const created = await api('/api-tokens', { method: 'POST', json: { name, scopes: ['machines:write', 'runs:write'] } });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; token: string };
}

const machine = async (hostname: string) =>
  ((await (await api('/machines')).json()) as { id: string; hostname: string; status: string }[]).find((m) => m.hostname === hostname);

/** Polls `read` until `done` holds; the bound is generous (a loaded machine is slow, not failing) and never a speed test. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await Bun.sleep(50);
  }
}

async function connectedAgent(hostname: string, token: string): Promise<AgentProcess> {
  const agent = startAgentProcess({ serverUrl: server.url, token, hostname });
  agents.push(agent);
  await agent.registered();
  await waitFor(() => machine(hostname), (m) => m?.status === 'online');
  return agent;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-agent-sockets-'));
  const env = {
    DATA_DIR: dataDir,
    LOCAL_AGENT: 'false',
    BOOTSTRAP_ADMIN_USERNAME: 'admin',
    BOOTSTRAP_ADMIN_PASSWORD: 'sockets-admin-password',
    AUTH_CLIENT_SECRET: 'sockets-client-secret',
  };
  server = await startServiceProcess({ env });
  jwt = await passwordGrant(server.url, { username: 'admin', password: 'sockets-admin-password', clientSecret: 'sockets-client-secret' });
}, 90_000);

afterAll(async () => {
  for (const agent of agents) await agent.kill('SIGKILL');
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

test('a revoked agent token: the socket closes and the machine goes offline', async () => {
  const { id, token } = await agentToken('revoked');
  const agent = await connectedAgent('gen-revoked', token);
  expect((await api(`/api-tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
  // Told by the revocation itself: the agent's own output names it (a dropped connection would not).
  await waitFor(() => machine('gen-revoked'), (m) => m?.status === 'offline');
  // The agent logs the close once it reads it: the server may mark the machine offline first.
  await waitFor(async () => agent.output(), (output) => output.includes('access revoked'));
  expect(agent.output()).toContain('access revoked');
  // Reconnecting with the dead token gets nowhere.
  await Bun.sleep(1_500);
  expect((await machine('gen-revoked'))?.status).toBe('offline');
}, 60_000);

test('a rotated agent token: the old secret loses its socket; the new one connects', async () => {
  const { id, token } = await agentToken('rotated');
  const agent = await connectedAgent('gen-rotated', token);
  const rotated = await api(`/api-tokens/${id}/rotate`, { method: 'POST' });
  expect(rotated.status).toBe(200);
  const { token: fresh } = (await rotated.json()) as { token: string };
  await waitFor(() => machine('gen-rotated'), (m) => m?.status === 'offline');
  expect(agent.output()).toContain('access revoked');
  await agent.kill();
  await connectedAgent('gen-rotated', fresh);
}, 60_000);

test('a deleted machine: its agent is told, stops for good (exit code 3) and does not register the machine again', async () => {
  const { token } = await agentToken('deleted');
  const agent = await connectedAgent('gen-deleted', token);
  const id = (await machine('gen-deleted'))!.id;
  expect((await api(`/machines/${id}`, { method: 'DELETE' })).status).toBe(204);
  // Wide: an agent that kept retrying instead would still be running, however slow the machine.
  const code = await Promise.race([agent.exited(), Bun.sleep(30_000).then(() => 'still running')]);
  expect(code).toBe(3);
  expect(agent.output()).toContain('the service deleted this machine');
  await Bun.sleep(500);
  expect(await machine('gen-deleted')).toBeUndefined();
}, 60_000);

test('hello with an empty name is refused and the socket closed; no machine is registered', async () => {
  const { token } = await agentToken('empty-name');
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
  const messages: string[] = [];
  socket.addEventListener('message', (event) => messages.push(String(event.data)));
  const closed = new Promise<number>((done) => socket.addEventListener('close', (event) => done(event.code)));
  await new Promise((done) => socket.addEventListener('open', done));
  socket.send(
    JSON.stringify({
      type: 'hello',
      protocol: 1,
      hostname: 'gen-empty-name',
      name: '   ',
      ip_address: '127.0.0.1',
      os: 'linux',
      arch: 'x64',
      cpu_cores: 2,
      memory_gb: 4,
      agent_version: 'test',
      tools: ['custom'],
      running: [],
    }),
  );
  expect(await closed).toBe(4400);
  expect(messages.join('\n')).toContain('name must not be empty');
  expect(await machine('gen-empty-name')).toBeUndefined();
}, 30_000);
