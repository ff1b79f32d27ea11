/**
 * `loadplane agent` as real processes against one service: two agents with one hostname (a cloned VM, `npm run agent`
 * beside `npm start`) are two machines, both online and stable, never replacing each other; the identity lives in the
 * state directory (a restart keeps the machine, a reinstall takes its offline machine back, a second agent on one
 * directory refuses to start, a cloned directory costs one takeover and then a new key); the token from the
 * environment or a file, never needed on the command line; engines installed while the agent runs are offered.
 * Stability is counted on the server (tests/helpers/agent-session-tap.ts): sockets opened and closed while each agent
 * sends its heartbeats (every 5 s), not timed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalAgent } from '../../adapters/runtime/bun/local-agent.ts';
import { numberedHostname } from '../../core/services/runs/agent-machines.ts';
import { normalizeHostname } from '../../core/domain/machine-rules.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { tapAgentSessions } from '../helpers/agent-session-tap.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { freePort, repoRoot } from '../helpers/service-process.ts';
import { adminPassword, startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let tap: ReturnType<typeof tapAgentSessions>;
let owner: { token: string; jwt: string };
let token: string;
let scratch: string;
const agents: AgentProcess[] = [];

type Listed = { id: string; hostname: string; status: string; tools: { tool: string; version: string | null }[] };
const machines = async () => (await (await ts.request('/api/v1/machines', { token: owner.token })).json()) as Listed[];
const registrations = (agent: AgentProcess) => (agent.output().match(/agent registered/g) ?? []).length;

/** Polls `read` until `done` holds (the test's own conditions; the suite's timeout bounds it). */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await Bun.sleep(50);
  }
}

function agent(hostname: string, options: Omit<Parameters<typeof startAgentProcess>[0], 'serverUrl' | 'token' | 'hostname'> & { token?: string } = {}) {
  const started = startAgentProcess({ serverUrl: ts.url, token: options.token ?? token, hostname, ...options });
  agents.push(started);
  return started;
}

/** Waits until every socket in `sockets` received `count` more heartbeats than it had when called. */
async function heartbeats(sockets: { heartbeats: number }[], count: number) {
  const from = sockets.map((socket) => socket.heartbeats);
  await until(
    () => sockets.every((socket, i) => socket.heartbeats >= from[i]! + count),
    (done) => done,
  );
}

/** Runs `loadplane` with these arguments and environment to its end. */
function loadplane(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['adapters/runtime/bun/loadplane.ts', ...args], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: scratch, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'loadplane-identity-'));
  ts = await startTestService({ port: await freePort() });
  tap = tapAgentSessions(ts.service);
  await ts.listen();
  owner = await ts.apiToken('identity-owner');
  token = await agentToken(ts, owner.jwt, 'agents');
}, 60_000);

afterAll(async () => {
  for (const started of agents) await started.kill('SIGKILL');
  await ts?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('two agents with one hostname', () => {
  let first: AgentProcess;
  let second: AgentProcess;
  let dirs: { first: string; second: string };

  test('are two machines, both online, stable across their heartbeats: no socket replaced, no reconnect', async () => {
    dirs = { first: join(scratch, 'first'), second: join(scratch, 'second') };
    first = agent('twin', { stateDir: dirs.first });
    await first.registered();
    second = agent('twin', { stateDir: dirs.second });
    await second.registered();
    const listed = await machines();
    expect(listed.map((m) => [m.hostname, m.status]).sort()).toEqual([['twin', 'online'], ['twin-2', 'online']]);
    expect(new Set(listed.map((m) => m.id)).size).toBe(2);
    // The second agent says, once, which machine it is and how to choose its name.
    expect(second.output()).toContain('the machine twin belongs to another agent, so this agent is the machine twin-2; to choose its name, start it with --hostname NAME');
    expect(first.output()).not.toContain('belongs to another agent');

    // Stable for at least 10 s: each agent sends a heartbeat every 5 s (the service's heartbeatSeconds, from a timer
    // set at its welcome), so three more of each span two full intervals whenever the count starts, the first possibly
    // arriving at once. Over that window the two sockets they opened are the only ones, still open: a replacement or a
    // reconnect at any moment of it would have left a third socket in the tap, or one of these ended.
    const sockets = tap.of('twin');
    expect(sockets).toHaveLength(2);
    await heartbeats(sockets, 3);
    expect(tap.of('twin')).toHaveLength(2);
    expect(sockets.map((s) => [s.ended, s.closedByServer])).toEqual([[false, null], [false, null]]);
    expect([registrations(first), registrations(second)]).toEqual([1, 1]);
    for (const started of [first, second]) expect(started.output()).not.toContain('reconnecting');
    expect((await machines()).every((m) => m.status === 'online')).toBe(true);
  }, 90_000);

  test('the identity is the state directory: a restart keeps the machine, whatever holds the hostname', async () => {
    const before = (await machines()).find((m) => m.hostname === 'twin-2')!;
    await second.kill('SIGTERM');
    await until(machines, (list) => list.find((m) => m.id === before.id)?.status === 'offline');
    second = agent('twin', { stateDir: dirs.second });
    await second.registered();
    const after = await machines();
    expect(after.find((m) => m.id === before.id)).toMatchObject({ hostname: 'twin-2', status: 'online' });
    expect(after).toHaveLength(2);
  }, 60_000);

  test('a second agent on a state directory in use refuses to start, saying how to give it its own', async () => {
    const intruder = agent('twin', { stateDir: dirs.second });
    expect(await intruder.exited()).toBe(2);
    expect(intruder.output()).toContain(`another agent (pid ${second.pid}) runs with the state directory ${dirs.second}`);
    expect(intruder.output()).toContain('--state-dir');
    expect(await machines()).toHaveLength(2);
  }, 60_000);

  test('a reinstalled agent (a new state directory) takes its offline machine back', async () => {
    const old = (await machines()).find((m) => m.hostname === 'twin')!;
    await first.kill('SIGTERM');
    await until(machines, (list) => list.find((m) => m.id === old.id)?.status === 'offline');
    first = agent('twin', { stateDir: join(scratch, 'reinstalled') });
    await first.registered();
    expect((await machines()).find((m) => m.id === old.id)).toMatchObject({ hostname: 'twin', status: 'online' });
    expect(first.output()).not.toContain('belongs to another agent');
    expect(await machines()).toHaveLength(2);
  }, 60_000);

  test('a cloned state directory (a cloned VM): one takeover, then the older agent takes a new key and both stay', async () => {
    const original = (await machines()).find((m) => m.hostname === 'twin')!;
    // A clone copies the key; its lock names a process of another boot, so only the key matters here.
    const clonedDir = join(scratch, 'clone');
    await mkdir(clonedDir, { recursive: true });
    await copyFile(join(scratch, 'reinstalled', 'machine-key'), join(clonedDir, 'machine-key'));
    const keyBefore = await readFile(join(scratch, 'reinstalled', 'machine-key'), 'utf8');
    const openBefore = tap.of('twin').filter((s) => !s.ended);
    const socketsBefore = tap.of('twin').length;
    const clone = agent('twin', { stateDir: clonedDir });
    await clone.registered();
    // The agent that was replaced registers again, once, as a machine of its own, with a new key in its directory.
    await first.registered(2);
    expect(first.output()).toContain('another agent connected with this machine key');
    expect(await readFile(join(scratch, 'reinstalled', 'machine-key'), 'utf8')).not.toBe(keyBefore);
    const listed = await until(machines, (list) => list.length === 3 && list.every((m) => m.status === 'online'));
    expect(listed.find((m) => m.id === original.id)!.hostname).toBe('twin');
    expect(listed.map((m) => m.hostname).sort()).toEqual(['twin', 'twin-2', 'twin-3']);
    // Exactly one socket was replaced (the older agent's), and two opened: the clone's and the older agent's new one.
    expect(openBefore.map((s) => s.closedByServer).sort()).toEqual([4409, null]);
    expect(tap.of('twin').length - socketsBefore).toBe(2);

    // From then on, nothing moves: the three open sockets see two heartbeats each, and none opens or closes.
    const live = tap.of('twin').filter((s) => !s.ended);
    expect(live).toHaveLength(3);
    await heartbeats(live, 2);
    expect(tap.of('twin').length - socketsBefore).toBe(2);
    expect(live.map((s) => [s.ended, s.closedByServer])).toEqual([[false, null], [false, null], [false, null]]);
    expect([registrations(clone), registrations(first)]).toEqual([1, 2]);
  }, 90_000);
});

describe('`npm run agent` beside `npm start`, as the README shows', () => {
  test("the local agent and an agent on the same host are two machines of the first workspace, both stable", async () => {
    // The local agent as `npm start` starts it (its key in DATA_DIR), and `npm run agent` with the system's hostname and
    // its own default state directory (here a temp one), with a token of the first workspace (the admin's).
    const local = await startLocalAgent(ts.service, { serverUrl: ts.url, dataDir: ts.dataDir, sandbox: 'on', calibration: false, logger: silentLogger });
    try {
      await local.ready;
      const adminJwt = await ts.tokenFor('admin', adminPassword);
      const beside = agent(hostname(), { token: await agentToken(ts, adminJwt, 'beside-npm-start'), stateDir: join(scratch, 'beside') });
      await beside.registered();
      const system = normalizeHostname(hostname());
      const listed = (await (await ts.request('/api/v1/machines', { token: adminJwt })).json()) as Listed[];
      expect(listed.map((m) => [m.hostname, m.status]).sort()).toEqual([[system, 'online'], [numberedHostname(system, 2), 'online']]);
      expect(listed.find((m) => m.hostname === system)!.id).toBe(local.machineId()!);

      const sockets = tap.of(hostname());
      expect(sockets).toHaveLength(2);
      await heartbeats(sockets, 2);
      expect(tap.of(hostname())).toHaveLength(2);
      expect(sockets.map((s) => [s.ended, s.closedByServer])).toEqual([[false, null], [false, null]]);
      expect(registrations(beside)).toBe(1);
      await beside.kill();
    } finally {
      await local.shutdown();
    }
  }, 60_000);
});

describe('the token', () => {
  test('from --token-file (first line, trimmed), with nothing in the environment or on the command line', async () => {
    const file = join(scratch, 'token');
    await writeFile(file, `  ${token}  \nsecond line ignored\n`, { mode: 0o600 });
    const started = agent('from-file', { token: 'psk_not_used', env: { LOADPLANE_TOKEN: '' }, extraArgs: ['--token-file', file] });
    await started.registered();
    expect((await machines()).some((m) => m.hostname === 'from-file' && m.status === 'online')).toBe(true);
    expect(started.output()).not.toContain('warning');
    await started.kill();
  }, 60_000);

  test('a token file every user may read is refused, with the fix', async () => {
    const file = join(scratch, 'open-token');
    await writeFile(file, `${token}\n`);
    await chmod(file, 0o644);
    const result = await loadplane(['agent', '--server', ts.url, '--token-file', file, '--state-dir', join(scratch, 'refused')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`chmod 600 ${file}`);
  });

  test('--token still works, with a warning that names the alternatives', async () => {
    const started = agent('from-flag', { env: { LOADPLANE_TOKEN: '' }, extraArgs: ['--token', token] });
    await started.registered();
    expect(started.output()).toContain('warning: a token on the command line can be read by every user of this machine');
    expect(started.output()).toContain('set LOADPLANE_TOKEN or use --token-file FILE');
    await started.kill();
  }, 60_000);

  test('no token and no server: usage and exit 2, naming the variables', async () => {
    const noToken = await loadplane(['agent', '--server', ts.url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('no token: set LOADPLANE_TOKEN, or pass --token-file FILE');
    const noServer = await loadplane(['agent'], { LOADPLANE_TOKEN: token });
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('set LOADPLANE_URL');
    // LOADPLANE_SERVER, the older name, still names the service.
    const older = await loadplane(['agent', '--sandbox', 'maybe'], { LOADPLANE_SERVER: ts.url, LOADPLANE_TOKEN: token });
    expect(older.stderr).toContain('--sandbox (or AGENT_SANDBOX) must be on or off');
  });
});

describe('the program', () => {
  test('--help on stdout, exit 0; no command or an unknown one: usage on stderr, exit 2', async () => {
    const help = await loadplane(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: loadplane <command>');
    expect(help.stdout).toContain('agent');
    const none = await loadplane([]);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain('usage: loadplane <command>');
    const unknown = await loadplane(['frobnicate']);
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const agentHelp = await loadplane(['agent', '--help']);
    expect(agentHelp.code).toBe(0);
    expect(agentHelp.stdout).toContain('--token-file');
  });
});

describe('engines installed while the agent runs', () => {
  test('are found within the look interval and offered, without a reconnect', async () => {
    // A home of its own: its engines directory (~/.cache/loadplane) starts empty, and PATH has no k6.
    const home = join(scratch, 'engine-home');
    await mkdir(home, { recursive: true });
    const started = agent('late-engine', { env: { HOME: home, PATH: '/usr/bin:/bin', AGENT_REDETECT_SECONDS: '0.2' }, extraArgs: ['--sandbox', 'off'] });
    await started.registered();
    const machine = async () => (await machines()).find((m) => m.hostname === 'late-engine')!;
    expect((await machine()).tools.map((t) => t.tool)).not.toContain('k6');
    expect(started.output()).toContain('k6 not found');

    // What `bash scripts/install-engines k6` does, in short: an executable at ~/.cache/loadplane/bin/k6.
    const bin = join(home, '.cache/loadplane/bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'k6.tmp'), '#!/bin/sh\necho "k6 v9.9.9 (fake, for a test)"\n', { mode: 0o755 });
    // Renamed into place whole, as an installer should: the agent never sees half a file.
    await rename(join(bin, 'k6.tmp'), join(bin, 'k6'));

    const offered = await until(machine, (m) => m.tools.some((t) => t.tool === 'k6'));
    expect(offered.tools.find((t) => t.tool === 'k6')).toEqual({ tool: 'k6', version: 'v9.9.9' });
    expect(registrations(started)).toBe(1);
    expect(tap.of('late-engine')).toHaveLength(1);
    // The person at the terminal sees the new list.
    expect(started.output().match(/load tools on this machine:/g)).toHaveLength(2);
    await started.kill();
  }, 60_000);
});
