/**
 * The attacker's view of run isolation, over real HTTP against the real service process: a plain `member` of the
 * first workspace writes a `custom` script that goes after the instance's secrets (the realm's signing key, the client
 * secret, the initial admin password, SECRET_KEY, the database files and URL, the server's environment through /proc)
 * and runs it on the local agent inside the service, then on a remote agent (`npm run agent`). The run's stored log
 * must hold none of the real values, read here from DATA_DIR, while the script still runs and its output streams live.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { scriptLines } from '../helpers/script-log.ts';
import { passwordGrant, repoRoot, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

// Given to the service in its environment: a tool must not see it in its own env, nor in the server's through /proc.
const secretKey = `isolation-secret-key-${crypto.randomUUID()}`;
let service: ServiceProcess;
let dataDir = '';
let remote: AgentProcess | null = null;
let admin = '';
let mallory = '';
let workspaceId = '';
let agentToken = '';
/** name -> the real value, as found on disk and in the service's environment. */
const secrets = new Map<string, string>();

async function api<T>(token: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Distinctive pieces of a secret file: its whole content, and each long string inside a JSON one (the JWK's d, p, q...). */
function piecesOf(name: string, content: string) {
  secrets.set(name, content.trim());
  if (!content.trim().startsWith('{')) return;
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string' && value.length >= 16) secrets.set(`${name}:${path}`, value);
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  walk(JSON.parse(content), '');
}

beforeAll(async () => {
  // Outside /tmp, the home and the repository: only the DATA_DIR mask itself hides it from a tool.
  dataDir = await mkdtemp('/var/tmp/loadplane-isolation-');
  await chmod(dataDir, 0o700);
  service = await startServiceProcess({ env: { DATA_DIR: dataDir, LOCAL_AGENT: 'true', SECRET_KEY: secretKey } });

  const password = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  piecesOf('initial-admin-password', password);
  piecesOf('auth-client-secret', clientSecret);
  piecesOf('realm-key', await readFile(join(dataDir, 'identity', 'realm-key.json'), 'utf8'));
  secrets.set('SECRET_KEY', secretKey);
  if (service.databaseUrl) {
    secrets.set('DATABASE_URL', service.databaseUrl);
    const dbPassword = new URL(service.databaseUrl).password;
    if (dbPassword) secrets.set('database password', decodeURIComponent(dbPassword));
  }
  expect(secrets.get('realm-key:.privateJwk.d')?.length ?? 0).toBeGreaterThan(16);

  admin = await passwordGrant(service.url, { username: 'admin', password, clientSecret });
  workspaceId = (await api<{ id: string }>(admin, '/workspace')).body.id;
  const created = await fetch(`${service.url}/auth/admin/realms/loadplane/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'mallory', email: 'mallory@example.test', enabled: true, credentials: [{ type: 'password', value: 'mallory-password' }] }),
  });
  expect(created.status).toBe(201);
  mallory = await passwordGrant(service.url, { username: 'mallory', password: 'mallory-password', clientSecret });
  // Her first call signs her in (a profile, a workspace of her own); then the owner adds her as a plain member.
  const me = await fetch(`${service.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${mallory}` } });
  expect(me.status).toBe(200);
  const added = await api<{ id: string; role: string }>(admin, '/members', { json: { user: 'mallory', role: 'member' } });
  expect(added).toMatchObject({ status: 201, body: { role: 'member' } });
  // She accepts the invitation (in her own workspace's context: she is not a member of the first one yet).
  const accepted = await fetch(`${service.url}/api/v1/auth/me/invitations/${added.body.id}/accept`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mallory}` },
  });
  expect(accepted.status).toBe(200);
  const workspace = await api<{ role: string }>(mallory, '/workspace');
  expect(workspace.body.role).toBe('member');

  agentToken = (await api<{ token: string }>(admin, '/api-tokens', { json: { name: 'remote agent', scopes: ['machines:write', 'runs:write'] } })).body.token;
  secrets.set('remote agent token', agentToken);
}, 90_000);

afterAll(async () => {
  await remote?.kill('SIGKILL');
  await service?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Machines of the first workspace, once `hostname` (or the local agent) is online. */
async function onlineMachine(match: (m: { name: string; hostname: string }) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await api<{ id: string; name: string; hostname: string; status: string }[]>(admin, '/machines');
    const machine = body.find((m) => match(m) && m.status === 'online');
    if (machine) return machine;
    if (Date.now() > deadline) throw new Error(`machine not online: ${JSON.stringify(body)}`);
    await Bun.sleep(100);
  }
}

/** The attack: every place a secret could be read from, each reported as READ (with its content) or DENIED. */
function attackScript(targets: { serverPid: number; agentPid?: number }) {
  const files = [
    `${dataDir}/identity/realm-key.json`,
    `${dataDir}/auth-client-secret`,
    `${dataDir}/initial-admin-password`,
    `${dataDir}/secret-key`,
    `${dataDir}/pglite/PG_VERSION`,
    `${dataDir}/pglite/global/pg_control`,
    `/proc/${targets.serverPid}/environ`,
    `/proc/${targets.serverPid}/cmdline`,
    `/proc/${targets.serverPid}/root${dataDir}/identity/realm-key.json`,
    `/proc/${targets.serverPid}/cwd/package.json`,
    ...(targets.agentPid ? [`/proc/${targets.agentPid}/cmdline`, `/proc/${targets.agentPid}/environ`] : []),
    `${repoRoot}/package.json`,
    `${homedir()}/.bash_history`,
  ];
  return `#!/bin/sh
echo "probe: uid $(id -u), pid $$, parent $PPID"
probe() {
  if content=$(tr '\\0' ' ' < "$1" 2>/dev/null); then echo "READ $1: $content"; else echo "DENIED $1"; fi
}
${files.map((file) => `probe '${file}'`).join('\n')}
# The sandbox's own parent and init: readable or not, they must hold nothing of the service.
probe "/proc/$PPID/environ"
probe "/proc/$PPID/cmdline"
probe "/proc/$PPID/cwd/data/identity/realm-key.json"
probe /proc/1/environ
ls -A ${dataDir} 2>&1 | sed 's/^/data dir: /'
echo "processes visible: $(ls /proc | grep -c '^[0-9]')"
# Descriptors inherited from the agent would bypass every mask (an open database file, the service's sockets).
for fd in /proc/$$/fd/*; do echo "fd $(basename $fd) -> $(readlink $fd)"; done
env | sed 's/^/env: /'
echo "probe done"
`;
}

async function attack(script: string, machineId: string) {
  const test = await api<{ id: string }>(mallory, '/tests', { json: { name: 'innocent smoke test', tool: 'custom', script } });
  expect(test.status).toBe(201);
  const task = await api<{ id: string }>(mallory, '/tasks', { json: { testId: test.body.id, machineIds: [machineId] } });
  expect(task.status).toBe(202);
  // Followed live from the start, as a user would: the output streams while the sandboxed script runs.
  const live = await readSse(await fetch(`${service.url}/api/v1/tasks/${task.body.id}/log-stream`, { headers: { authorization: `Bearer ${mallory}`, 'x-workspace-id': workspaceId } }));
  const stored = await readSse(await fetch(`${service.url}/api/v1/tasks/${task.body.id}/log-stream?after=0`, { headers: { authorization: `Bearer ${admin}` } }));
  const texts = (events: typeof live.events, source?: 'out') =>
    events.filter((e) => e.data.type === 'log' && (!source || e.data.source === source)).map((e) => String(e.data.text));
  return {
    live: texts(live.events),
    stored: texts(stored.events),
    // Stdout alone, in order. The shell's own errors (a probe's `< file` it cannot open) go to stderr, another pipe:
    // how its lines interleave with stdout's depends on which pipe the agent reads first, so no order across the two.
    // The agent's progress lines (also `out`; a slow sandbox start or exit on a busy machine) are left out.
    out: scriptLines(texts(stored.events, 'out')),
    done: stored.events.at(-1)?.data as { type: string; task: { status: string } },
  };
}

function expectNoSecret(log: string[]) {
  const text = log.join('\n');
  for (const [name, value] of secrets) expect({ name, leaked: text.includes(value) }).toEqual({ name, leaked: false });
  for (const variable of ['DATABASE_URL', 'SECRET_KEY', 'AUTH_CLIENT_SECRET', 'DATA_DIR', 'LOADPLANE_TOKEN', 'npm_']) {
    expect(log.filter((line) => line.startsWith(`env: ${variable}`))).toEqual([]);
  }
}

/** stdin is /dev/null, stdout and stderr the agent's pipes (sockets under Bun); the rest is the shell's own. */
function expectNoInheritedDescriptor(log: string[]) {
  const descriptors = log.filter((line) => line.startsWith('fd ')).map((line) => /^fd (\d+) -> (.*)$/.exec(line)!.slice(1));
  expect(descriptors.find(([fd]) => fd === '0')).toEqual(['0', '/dev/null']);
  for (const [fd, target] of descriptors) {
    if (fd === '0') continue;
    const own = ['1', '2'].includes(fd) ? /^(socket|pipe):/ : /^pipe:|\/script$/; // the loop's $(...) and the script sh reads
    expect({ fd, target, inherited: !own.test(target!) }).toEqual({ fd, target, inherited: false });
  }
}

describe('a member\'s custom script cannot reach the instance\'s secrets', () => {
  test('on the local agent inside the service: every secret file denied, /proc shows no server, the env holds only the run', async () => {
    // The service answers /healthz before it starts its local agent, which logs its sandbox before it registers: once
    // the machine is online the line has been written, though this process may not have read it from the pipe yet.
    const local = await onlineMachine((m) => m.name === 'local agent');
    await waitFor(() => service.output().includes('tools run in a sandbox'), 30_000, () => `the local agent's sandbox line in:\n${service.output()}`);
    const { live, stored, out, done } = await attack(attackScript({ serverPid: service.pid }), local.id);
    expect(done).toMatchObject({ type: 'done', task: { status: 'completed' } });
    // It ran, and streamed: the live stream saw what was stored, first line to last.
    expect(out[0]).toStartWith('probe: uid ');
    expect(out.at(-1)).toBe('probe done');
    expect(live).toEqual(stored);
    expectNoSecret(stored);
    for (const file of ['identity/realm-key.json', 'auth-client-secret', 'initial-admin-password', 'pglite/PG_VERSION', 'pglite/global/pg_control']) {
      expect(stored).toContain(`DENIED ${dataDir}/${file}`);
    }
    for (const place of ['environ', 'cmdline', `root${dataDir}/identity/realm-key.json`, 'cwd/package.json']) {
      expect(stored).toContain(`DENIED /proc/${service.pid}/${place}`);
    }
    expect(stored).toContain(`DENIED ${repoRoot}/package.json`);
    // $PPID is the sandbox's init, not the service: nothing of the service's working directory behind it.
    expect(stored).toContain('DENIED /proc/1/cwd/data/identity/realm-key.json');
    expect(stored.filter((line) => line.startsWith('data dir: '))).toEqual([]); // an empty directory
    expect(Number(stored.find((line) => line.startsWith('processes visible: '))!.split(': ')[1])).toBeLessThanOrEqual(6);
    // What the run needs did arrive.
    expect(stored.some((line) => line.startsWith('env: LOADPLANE_TASK_ID='))).toBe(true);
    expect(stored.some((line) => line.startsWith('env: PATH='))).toBe(true);
    expectNoInheritedDescriptor(stored);
  }, 60_000);

  test('on a remote agent (npm run agent): the same sandbox, and the agent\'s own token stays out of reach', async () => {
    remote = startAgentProcess({ serverUrl: service.url, token: agentToken, hostname: 'isolation-remote' });
    await remote.registered();
    expect(remote.output()).toContain('tools run in a sandbox');
    const machine = await onlineMachine((m) => m.hostname === 'isolation-remote');
    const { live, stored, out, done } = await attack(attackScript({ serverPid: service.pid, agentPid: remote.pid }), machine.id);
    expect(done).toMatchObject({ type: 'done', task: { status: 'completed' } });
    expect(out.at(-1)).toBe('probe done');
    expect(live).toEqual(stored);
    expectNoSecret(stored);
    expect(stored).toContain(`DENIED /proc/${remote.pid}/cmdline`);
    expect(stored).toContain(`DENIED /proc/${remote.pid}/environ`);
    expect(stored).toContain(`DENIED ${dataDir}/identity/realm-key.json`);
    expectNoInheritedDescriptor(stored);
  }, 60_000);
});
