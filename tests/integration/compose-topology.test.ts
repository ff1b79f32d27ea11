/**
 * compose.yaml's topology, started natively from the file's own settings (there is no Docker engine here): PostgreSQL,
 * Keycloak with the realm file and compose's KC_* variables, TWO replicas of the `loadplane` service with its
 * environment, and the `agent` service's command as the single executable (agent.Dockerfile's ENTRYPOINT). Service
 * names become loopback ports and volumes become directories (tests/helpers/compose-native.ts). A user signs in through
 * Keycloak, runs an `http` test through one replica and follows it to `completed` with its figures on the other; a
 * script in the agent's sandbox finds the agent's token and machine key masked; SIGTERM ends each replica with exit 0
 * inside compose's stop_grace_period (10 s) while an agent socket and a stream are open.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readComposeFile } from '../helpers/compose-file.ts';
import { nativeArgs, nativeEnvironment, type NativeMap, nativeValue } from '../helpers/compose-native.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { keycloakMissingReason, keycloakPasswordGrant, type KeycloakServer, startKeycloak } from '../helpers/keycloak-server.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort, repoRoot, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

// Every `${X:-default}` at its default: the file as `docker compose up` reads it on a machine with no .env.
const compose = readComposeFile();
const server = compose.services.loadplane!;
const agentService = compose.services.agent!;
const keycloakService = compose.services.keycloak!;
const serverEnv = server.environment!;

let missing = keycloakMissingReason();
const ready = () => requireOrSkip(missing, 'the compose topology suite');

let postgres: PostgresServer | null = null;
let keycloak: KeycloakServer | null = null;
const replicas: ServiceProcess[] = [];
let agent: ChildProcess | null = null;
let agentOutput = '';
let agentExit: Promise<number | null> = Promise.resolve(null);
let binary = '';
let scratch = '';
let workdir = '';
let map: NativeMap;
let agentEnv: Record<string, string> = {};

const served = new Map<string, number>();
const target = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const path = new URL(request.url).pathname;
    served.set(path, (served.get(path) ?? 0) + 1);
    return new Response('hello from the target');
  },
});

/** scripts/build-binaries.sh for this machine's architecture, as agent.Dockerfile's build stage runs it. */
async function buildBinary(dir: string): Promise<string> {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const build = Bun.spawn(['bash', 'scripts/build-binaries.sh', arch], { cwd: repoRoot, env: { ...process.env, DIST_DIR: dir }, stdout: 'pipe', stderr: 'pipe' });
  const [code, out, err] = await Promise.all([build.exited, new Response(build.stdout).text(), new Response(build.stderr).text()]);
  if (code !== 0) throw new Error(`build-binaries.sh ${arch} failed:\n${out}\n${err}`);
  return join(dir, `loadplane-linux-${arch}`);
}

/** compose's DATABASE_URL names the `postgres` service: natively, a fresh database of the test's server. */
function nativeDatabaseUrl(): string {
  const url = new URL(serverEnv.DATABASE_URL!);
  if (url.hostname !== 'postgres') throw new Error(`DATABASE_URL does not name the postgres service: ${url.hostname}`);
  return postgres!.url;
}

/** The agent image's ENTRYPOINT (compose sets none of its own): the executable, `loadplane` on the image's PATH. */
const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(readFileSync(join(repoRoot, agentService.build!.dockerfile!), 'utf8'))![1]!) as string[];

/** A container's argv natively: the single executable where the image has `loadplane`. */
const agentArgv = (args: readonly string[]) => nativeArgs(agentService, args, map).map((arg, index) => (index === 0 && arg === 'loadplane' ? binary : arg));

/** Runs the agent service's healthcheck (`CMD loadplane agent --health`) natively, with the container's environment. */
function agentHealthcheck(): { code: number; text: string } {
  const test = agentService.healthcheck!.test as string[];
  if (test[0] !== 'CMD') throw new Error(`the agent's healthcheck is not exec form: ${test.join(' ')}`);
  const [file, ...args] = agentArgv(test.slice(1));
  const run = Bun.spawnSync([file!, ...args], { env: agentEnv, stdout: 'pipe', stderr: 'pipe' });
  return { code: run.exitCode, text: `${run.stdout.toString()}${run.stderr.toString()}` };
}

beforeAll(async () => {
  if (missing) return;
  postgres = await startPostgresServer();
  if (!postgres) {
    missing = POSTGRES_SKIP_MESSAGE;
    return;
  }
  // Volumes under /var/tmp rather than /tmp: each tool gets a fresh /tmp in its sandbox, which would hide them from the
  // probe below whatever the agent masks. Traversable, as a volume is: the files in them decide who reads what.
  scratch = await mkdtemp(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'lp-compose-'));
  chmodSync(scratch, 0o755);
  const volumes: Record<string, string> = {};
  for (const name of Object.keys(compose.volumes)) {
    volumes[name] = join(scratch, name);
    mkdirSync(volumes[name]!, { mode: 0o755 });
  }
  const keycloakPort = await freePort();
  map = { hosts: { [`keycloak:${keycloakService.environment!.KC_HTTP_PORT}`]: `127.0.0.1:${keycloakPort}` }, volumes };

  // The slow parts at once: Keycloak (30-60 s on a busy machine), the executable, and the replicas, which boot while
  // Keycloak is still down (they fetch its keys at the first token). The first replica applies the migrations.
  const env = { ...nativeEnvironment(server, map), DATABASE_URL: nativeDatabaseUrl() };
  const started = await Promise.allSettled([
    startKeycloak({ port: keycloakPort, env: nativeEnvironment(keycloakService, map) }),
    buildBinary(scratch),
    (async () => {
      replicas.push(await startServiceProcess({ env }));
      replicas.push(await startServiceProcess({ env }));
    })(),
  ]);
  if (started[0].status === 'fulfilled') keycloak = started[0].value;
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  if (!keycloak) throw new Error('Keycloak was found but did not start');
  binary = (started[1] as PromiseFulfilledResult<string>).value;

  // The agent dials the `loadplane` service: the first replica (a balancer would pick one).
  map.hosts[`loadplane:${serverEnv.PORT}`] = `127.0.0.1:${replicas[0]!.port}`;
  // Its working directory apart from the volumes (the sandbox hides the agent's working directory and home).
  workdir = await mkdtemp(join(tmpdir(), 'lp-compose-agent-'));
  agentEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...nativeEnvironment(agentService, map) };
  // compose's `hostname:` is the container's host name; natively, the agent's --hostname.
  const [file, ...args] = agentArgv([...entrypoint, ...agentService.command!, '--hostname', agentService.hostname!]);
  const child = spawn(file!, args, { cwd: workdir, env: agentEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  agent = child;
  child.stdout!.on('data', (chunk) => (agentOutput += chunk));
  child.stderr!.on('data', (chunk) => (agentOutput += chunk));
  agentExit = new Promise((done) => child.once('exit', (code) => done(code)));
  // Healthy as compose would see it: the agent's own healthcheck passes once it is registered.
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the agent exited with ${child.exitCode}:\n${agentOutput}`);
      return agentHealthcheck().code === 0;
    },
    60_000,
    () => `the agent's healthcheck (${agentHealthcheck().text.trim()}):\n${agentOutput}`,
  );
}, 300_000);

afterAll(async () => {
  agent?.kill('SIGKILL');
  await Promise.all(replicas.map((replica) => replica.stop()));
  await keycloak?.stop();
  await postgres?.stop();
  await target.stop(true);
  for (const dir of [scratch, workdir]) if (dir) await rm(dir, { recursive: true, force: true });
});

const claimsOf = (jwt: string) => JSON.parse(atob(jwt.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/'))) as Record<string, unknown>;

async function call<T>(replica: ServiceProcess, token: string, path: string, json?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${replica.url}/api/v1${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

let psk = '';
/** The admin signed in through Keycloak, as compose's users do, then a `psk_` token for the rest (created on replica A). */
async function signIn(): Promise<string> {
  if (psk) return psk;
  const grant = await keycloakPasswordGrant(keycloak!.url, { username: 'admin', password: 'admin', clientSecret: serverEnv.AUTH_CLIENT_SECRET! });
  // KC_HOSTNAME from compose: the token names the public address, which AUTH_ISSUER holds the service to.
  expect(claimsOf(grant.access_token).iss).toBe(serverEnv.AUTH_ISSUER!);
  const created = await call<{ token: string }>(replicas[0]!, grant.access_token, '/api-tokens', { name: 'compose topology' });
  expect(created.status).toBe(201);
  psk = created.body.token;
  return psk;
}

interface Task {
  id: string;
  status: string;
  total_requests: number;
  error_rate: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Creates the test on replica B and starts it there; the agent is on replica A. */
async function runOnB(token: string, test: { name: string; tool: string; script: string }, config?: { vus: number; duration: string }) {
  const b = replicas[1]!;
  const created = await call<{ id: string }>(b, token, '/tests', test);
  expect(created.status).toBe(201);
  const configId = config ? (await call<{ id: string }>(b, token, '/configs', { name: `${config.vus} users, ${config.duration}`, ...config })).body.id : undefined;
  const task = await call<{ id: string }>(b, token, '/tasks', { testId: created.body.id, ...(configId ? { configId } : {}) });
  expect(task.status).toBe(202);
  return task.body.id;
}

/** Follows a task's SSE stream on replica A to its end: its log lines and the final record. */
async function followOnA(token: string, taskId: string) {
  const response = await fetch(`${replicas[0]!.url}/api/v1/tasks/${taskId}/log-stream`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const { events } = await readSse(response, (seen) => seen.some((event) => event.data.type === 'done' || event.data.type === 'error'));
  const end = events.at(-1)!.data;
  const lines = events.filter((event) => event.data.type === 'log').map((event) => String(event.data.text));
  return { end, lines, task: end.task as Task };
}

test('the agent service registers as compose names it, with its token from the shared volume', async () => {
  if (!ready()) return;
  const token = await signIn();
  const machines = await call<{ hostname: string; status: string; tools: { tool: string }[] }[]>(replicas[1]!, token, '/machines');
  const machine = machines.body.find((m) => m.hostname === agentService.hostname);
  expect(machine, agentOutput).toMatchObject({ status: 'online' });
  expect(machine!.tools.map((t) => t.tool)).toContain('http');
  // The token came from the file the service wrote (AGENT_TOKEN_FILE), read by the agent through --token-file: one
  // file, through the volume both mount.
  const written = nativeValue(server, serverEnv.AGENT_TOKEN_FILE!, map);
  const command = agentService.command!;
  expect(nativeValue(agentService, command[command.indexOf('--token-file') + 1]!, map)).toBe(written);
  expect(readFileSync(written, 'utf8')).toMatch(/^psk_[0-9A-Za-z]+\n$/);
});

test('a user signs in through Keycloak, runs an http test through one replica and follows it to completed on the other', async () => {
  if (!ready()) return;
  const token = await signIn();
  const steps = `steps:\n  - name: hello\n    method: GET\n    url: http://127.0.0.1:${target.port}/hello\n    expect: {status: 200}\n`;
  const taskId = await runOnB(token, { name: 'compose topology', tool: 'http', script: steps }, { vus: 2, duration: '2s' });
  const followed = await followOnA(token, taskId);
  expect(followed.end.type, JSON.stringify(followed.end)).toBe('done');
  expect(followed.task.status).toBe('completed');

  const hits = served.get('/hello') ?? 0;
  expect(hits).toBeGreaterThan(0);
  // The figures on the replica the run was started on, merged from what the agent sent to the other.
  const task = await call<Task>(replicas[1]!, token, `/tasks/${taskId}`);
  expect(task.body).toMatchObject({ status: 'completed', total_requests: hits, error_rate: 0 });
  expect(task.body.p50).toBeGreaterThan(0);
  expect(task.body.p99).toBeGreaterThanOrEqual(task.body.p50);
}, 120_000);

test("a script in the agent's sandbox finds the agent's token file and state directory masked", async () => {
  if (!ready()) return;
  const token = await signIn();
  const machines = await call<{ hostname: string; tools: { tool: string }[] }[]>(replicas[1]!, token, '/machines');
  const tools = machines.body.find((m) => m.hostname === agentService.hostname)!.tools.map((t) => t.tool);
  // `custom` runs its author's code: offered only where the sandbox works (bubblewrap installed, namespaces allowed).
  if (!requireOrSkip(tools.includes('custom') ? null : `the agent offers no sandboxed tool here:\n${agentOutput}`, 'the sandbox probe')) return;
  const command = agentService.command!;
  const tokenFile = nativeValue(agentService, command[command.indexOf('--token-file') + 1]!, map);
  const stateDir = agentEnv.AGENT_STATE_DIR!;
  // Outside the sandbox both hold secrets: the token, and the machine key that makes this agent its machine.
  expect(readFileSync(tokenFile, 'utf8')).toStartWith('psk_');
  expect(readdirSync(stateDir)).toContain('machine-key');
  const probe = `#!/bin/sh\necho "token=[$(stat -c %F '${tokenFile}' 2>&1)]"\necho "state=[$(ls -A '${stateDir}' 2>&1)]"\n`;
  const followed = await followOnA(token, await runOnB(token, { name: 'sandbox probe', tool: 'custom', script: probe }));
  expect(followed.task.status, followed.lines.join('\n')).toBe('completed');
  // Masked, not merely unreadable: the file is /dev/null (on a nodev mount, so reading it is refused) and the directory
  // an empty tmpfs. Natively the agent is root and its tools run as nobody, whom the modes refuse anyway; in the image
  // both are `node`, and only these masks keep the secrets from a script.
  expect(followed.lines).toContain('token=[character special file]');
  expect(followed.lines).toContain('state=[]');
}, 120_000);

test("SIGTERM ends each replica with exit 0 within compose's 10 s grace, an agent socket and a stream open; then the agent", async () => {
  if (!ready()) return;
  expect(server.stop_grace_period).toBe('10s');
  const token = await signIn();
  // A long run in flight on the agent (connected to A), followed on B.
  const steps = `steps:\n  - name: long\n    method: GET\n    url: http://127.0.0.1:${target.port}/long\n`;
  const taskId = await runOnB(token, { name: 'long run', tool: 'http', script: steps }, { vus: 1, duration: '120s' });
  await waitFor(async () => (served.get('/long') ?? 0) > 0, 60_000, 'the long run to reach its target');
  const stream = await fetch(`${replicas[1]!.url}/api/v1/tasks/${taskId}/log-stream`, { headers: { authorization: `Bearer ${token}` } });
  expect(stream.status).toBe(200);
  const reading = readSse(stream).catch(() => null);

  // stop(): SIGTERM, then SIGKILL at 10 s, which would make the exit code null.
  const began = Date.now();
  const codes = await Promise.all(replicas.map(async (replica) => ({ code: await replica.stop(), seconds: (Date.now() - began) / 1000 })));
  for (const [index, replica] of replicas.entries()) expect({ replica: index, code: codes[index]!.code }, `${codes[index]!.seconds} s\n${replica.output().slice(-3000)}`).toEqual({ replica: index, code: 0 });
  // The stream ended with its server instead of hanging.
  await reading;

  // The agent, likewise (compose stops it first on `down`; here it has lost its server and is reconnecting).
  const guard = setTimeout(() => agent?.kill('SIGKILL'), 10_000);
  agent!.kill('SIGTERM');
  const agentCode = await agentExit;
  clearTimeout(guard);
  expect(agentCode, agentOutput.slice(-3000)).toBe(0);
  // No agent, no health: compose would now see it unhealthy.
  expect(agentHealthcheck().code).toBe(1);
}, 120_000);
