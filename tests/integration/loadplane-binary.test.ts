/**
 * The single executable (scripts/build-binaries.sh, `bun build --compile`) for this machine's architecture, run outside
 * the checkout: its usage, and `loadplane agent` against a service, online with the built-in tools the bundler took in
 * (the plugins' `import()` of literal paths), running a test to its end; a packed plugin installed by it and loaded
 * with its own kit; and the other architecture's executable, built and checked by its ELF header.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToken } from '../helpers/service-with-agent.ts';
import { freePort, repoRoot } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const target = process.arch === 'arm64' ? 'arm64' : 'x64';
let dir: string;
let binary: string;
let ts: TestService;
let agent: ChildProcess | null = null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loadplane-binary-'));
  const built = spawnSync('bash', ['scripts/build-binaries.sh', target], { cwd: repoRoot, env: { ...process.env, DIST_DIR: dir }, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build-binaries.sh ${target} failed:\n${built.stdout}\n${built.stderr}`);
  binary = join(dir, `loadplane-linux-${target}`);
  ts = await startTestService({ port: await freePort() });
  await ts.listen();
}, 180_000);

afterAll(async () => {
  agent?.kill('SIGKILL');
  await ts?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('loadplane --help, and an unknown command: usage, exit 0 and 2', () => {
  const help = spawnSync(binary, ['--help'], { cwd: dir, encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('usage: loadplane <command>');
  const unknown = spawnSync(binary, ['mcpx'], { cwd: dir, encoding: 'utf8' });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('unknown command "mcpx"');
});

test('loadplane agent: online with the built-in tools, and runs a test to its end', async () => {
  const owner = await ts.apiToken('binary-owner');
  const token = await agentToken(ts, owner.jwt, 'binary-agent');
  // Outside the checkout, with nothing but the executable: the token from the environment, the state in a temp dir.
  const child = spawn(binary, ['agent', '--hostname', 'from-binary'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOADPLANE_URL: ts.url, LOADPLANE_TOKEN: token, AGENT_STATE_DIR: join(dir, 'state') },
  });
  agent = child;
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  while (!output.includes('agent registered')) {
    if (child.exitCode !== null) throw new Error(`the agent exited with ${child.exitCode}:\n${output}`);
    await Bun.sleep(50);
  }
  const api = async <T>(path: string, init: { method?: string; json?: unknown } = {}) =>
    (await (await ts.request(`/api/v1${path}`, { token: owner.token, ...init })).json()) as T;
  const [machine] = await api<{ hostname: string; status: string; tools: { tool: string }[] }[]>('/machines');
  expect(machine).toMatchObject({ hostname: 'from-binary', status: 'online' });
  // Every built-in tool's plugin is in the executable; `custom` and `http` need no engine.
  expect(output).toContain('load tools on this machine:');
  for (const tool of ['artillery', 'custom', 'gatling', 'http', 'jmeter', 'k6', 'locust']) expect(output).toMatch(new RegExp(`\\n  ${tool} `));
  expect(machine!.tools.map((t) => t.tool)).toContain('custom');

  const created = await api<{ id: string }>('/tests', { method: 'POST', json: { name: 'from the binary', tool: 'custom', script: '#!/bin/sh\necho ran by the single executable\n' } });
  const { id } = await api<{ id: string }>('/tasks', { method: 'POST', json: { testId: created.id } });
  const ended = async (taskId: string) => {
    let task: { status: string; total_requests: number | null };
    do {
      task = await api<{ status: string; total_requests: number | null }>(`/tasks/${taskId}`);
      await Bun.sleep(100);
    } while (task.status === 'pending' || task.status === 'running');
    return task;
  };
  expect((await ended(id)).status).toBe('completed');

  // The http tool's engine is bundled in the executable too (its hidden `__module` subcommand): a native-steps run.
  expect(machine!.tools.map((t) => t.tool)).toContain('http');
  const steps = `steps:\n  - name: health\n    method: GET\n    url: ${ts.url}/healthz\n    expect: {status: 200}\n`;
  const http = await api<{ id: string }>('/tests', { method: 'POST', json: { name: 'http from the binary', tool: 'http', script: steps } });
  const { id: httpRun } = await api<{ id: string }>('/tasks', { method: 'POST', json: { testId: http.id } });
  const httpTask = await ended(httpRun);
  expect(httpTask, output.slice(-2000)).toMatchObject({ status: 'completed', total_requests: 1 });
}, 90_000);

test('loadplane plugin install --agent from the executable: the packed plugin loads with its own kit, and its tool is offered', async () => {
  // The hey example as a stranger ships it; nothing of the checkout is beside the executable (no kit to install).
  const packed = spawnSync('npm', ['pack', join(repoRoot, 'examples/loadplane-plugin-hey'), '--pack-destination', dir, '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!.trim());
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AGENT_PLUGINS_DIR: join(dir, 'agent-plugins'), npm_config_offline: 'true' };
  const installed = spawnSync(binary, ['plugin', 'install', '--agent', tarball], { cwd: dir, env, encoding: 'utf8' });
  expect(installed.status, installed.stderr).toBe(0);
  expect(installed.stdout).toContain(`installed loadplane-plugin-hey 0.1.0 into ${join(dir, 'agent-plugins')}`);
  expect(spawnSync(binary, ['plugin', 'list', '--agent'], { cwd: dir, env, encoding: 'utf8' }).stdout.trim()).toBe('loadplane-plugin-hey 0.1.0');

  const owner = await ts.apiToken('binary-plugin-owner');
  const token = await agentToken(ts, owner.jwt, 'binary-plugin-agent');
  const child = spawn(binary, ['agent', '--hostname', 'binary-with-plugin'], {
    cwd: dir,
    env: { ...env, LOADPLANE_URL: ts.url, LOADPLANE_TOKEN: token, AGENT_STATE_DIR: join(dir, 'plugin-state') },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  try {
    while (!output.includes('agent registered')) {
      if (child.exitCode !== null) throw new Error(`the agent exited with ${child.exitCode}:\n${output}`);
      await Bun.sleep(50);
    }
    // Listed among the tools whether or not hey itself is installed here (then with how to install it).
    expect(output).toMatch(/\n {2}hey\s/);
    expect(output).not.toContain('Cannot find package');
  } finally {
    child.kill('SIGKILL');
  }
}, 90_000);

test("the other architecture's executable builds too: an ELF for AArch64 (x86-64 on an arm64 machine)", () => {
  const other = target === 'x64' ? 'arm64' : 'x64';
  const built = spawnSync('bash', ['scripts/build-binaries.sh', other], { cwd: repoRoot, env: { ...process.env, DIST_DIR: dir }, encoding: 'utf8' });
  expect(built.status, `${built.stdout}\n${built.stderr}`).toBe(0);
  // It cannot run here; its header says what it is: ELF magic, 64-bit, little-endian, e_machine 0xB7 (AArch64) or 0x3E.
  const header = readFileSync(join(dir, `loadplane-linux-${other}`)).subarray(0, 20);
  expect([...header.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
  expect(header[4]).toBe(2);
  expect(header[5]).toBe(1);
  expect(header.readUInt16LE(18)).toBe(other === 'arm64' ? 0xb7 : 0x3e);
}, 180_000);
