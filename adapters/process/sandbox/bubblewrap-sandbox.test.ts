/**
 * The tool sandbox for real (bubblewrap must be installed, as .ci/run does): what a tool can and cannot reach through
 * the agent's process runner, how it stops, and both privilege cases: an agent running as root (the tool drops to
 * uid 65534) and an unprivileged agent (a user namespace).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupAlive, processTreeOf, uniqueSleep, waitFor } from '../../../tests/helpers/process-probes.ts';
import { createNodeProcessRunner } from '../node-process-runner.ts';
import { bubblewrapBaseArgs, bubblewrapSandbox } from './bubblewrap-sandbox.ts';
import { openToolSandbox, parseSandboxMode, sandboxUid } from './open-tool-sandbox.ts';
import type { ToolSandbox } from './tool-sandbox.ts';

const asRoot = process.getuid?.() === 0;
const env = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };
let scratch = '';
let secretDir = '';
let sandbox: ToolSandbox;
let runner: ReturnType<typeof createNodeProcessRunner>;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'loadplane-sandbox-test-'));
  await chmod(scratch, 0o755);
  // Outside /tmp, like a DATA_DIR (a tool's /tmp is a private tmpfs anyway, which would prove nothing).
  secretDir = await mkdtemp('/var/tmp/loadplane-sandbox-secrets-');
  await writeFile(join(secretDir, 'realm-key.json'), '{"secret":"top-secret-key"}');
  await mkdir(join(secretDir, 'engines'), { recursive: true });
  await writeFile(join(secretDir, 'engines', 'tool.sh'), '#!/bin/sh\necho engine reachable\n', { mode: 0o755 });
  await chmod(join(secretDir, 'engines'), 0o755);
  const opened = await openToolSandbox({ mode: 'on', hide: [secretDir], readOnly: [join(secretDir, 'engines', 'tool.sh')] });
  if (!opened.ok) throw new Error(`the sandbox must work on this machine (bubblewrap installed): ${opened.reason}`);
  sandbox = opened.sandbox;
  runner = createNodeProcessRunner({ sandbox, drainGraceMs: 2_000 });
});

afterAll(async () => {
  await sandbox?.dispose();
  await rm(scratch, { recursive: true, force: true });
  if (secretDir) await rm(secretDir, { recursive: true, force: true });
});

async function run(script: string, files: Record<string, string> = {}) {
  const dir = await runner.makeWorkDir({ 'probe.sh': script, ...files });
  const lines: string[] = [];
  const proc = await runner.spawn({ argv: ['sh', 'probe.sh'], cwd: dir.path, env, onLine: (source, line) => lines.push(`${source}:${line}`) });
  const exit = await proc.exited;
  const left = await readdir(dir.path);
  await dir.remove();
  return { lines, out: lines.filter((l) => l.startsWith('out:')).map((l) => l.slice(4)), exit, left, dir: dir.path };
}

describe('bubblewrap arguments', () => {
  test('parents are masked before children, nothing under a mask or /tmp twice, read-only paths come back', () => {
    const args = bubblewrapBaseArgs({
      bwrap: '/usr/bin/bwrap',
      hide: [
        { path: '/srv/app/data', directory: true },
        { path: '/root', directory: true },
        { path: '/srv/app', directory: true },
        { path: '/tmp/lp/data', directory: true },
        { path: '/etc/loadplane.env', directory: false },
      ],
      readOnly: ['/root/.cache/loadplane', '/usr/bin/k6'],
      workRoot: '/tmp/loadplane-runs-x',
    });
    const line = args.join(' ');
    expect(line).toContain('--unshare-pid --unshare-ipc --die-with-parent --ro-bind / / --dev /dev --proc /proc --perms 1777 --tmpfs /tmp');
    expect(line).not.toContain('--unshare-net');
    expect(line).toContain('--tmpfs /tmp --unshare-user --disable-userns'); // no uid to drop to: a user namespace
    expect(line).toContain('--tmpfs /root --tmpfs /srv/app --ro-bind /dev/null /etc/loadplane.env');
    expect(line).not.toContain('/srv/app/data'); // under /srv/app, masked already
    expect(line).not.toContain('/tmp/lp/data'); // under /tmp, a private tmpfs
    expect(line).toContain('--perms 0755 --dir /root/.cache --ro-bind /root/.cache/loadplane /root/.cache/loadplane');
    expect(line).not.toContain('/usr/bin/k6'); // not hidden, so visible anyway
    expect(line.endsWith('--perms 0711 --dir /tmp/loadplane-runs-x')).toBe(true);
  });

  test('a hidden path inside a read-only one is masked again after it', () => {
    const args = bubblewrapBaseArgs({
      bwrap: 'bwrap',
      hide: [{ path: '/opt/lp', directory: true }, { path: '/opt/lp/tools/secrets', directory: true }],
      readOnly: ['/opt/lp/tools'],
      workRoot: '/var/lib/lp-runs',
      dropTo: { uid: 65534, gid: 65534, setpriv: '/usr/bin/setpriv' },
    }).join(' ');
    expect(args).toContain('--ro-bind /opt/lp/tools /opt/lp/tools --tmpfs /opt/lp/tools/secrets');
    expect(args).not.toContain('--unshare-user'); // root drops to a uid instead (setpriv, in the command)
    expect(args.endsWith('--perms 0711 --tmpfs /var/lib/lp-runs')).toBe(true);
  });
});

describe('openToolSandbox', () => {
  test('without bubblewrap it refuses, naming the package and the way out', async () => {
    const opened = await openToolSandbox({ mode: 'on', hide: [], readOnly: [], bwrap: '/nonexistent/bwrap' });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.reason).toContain('apt-get install bubblewrap');
    expect(opened.reason).toContain('AGENT_SANDBOX=off');
  });

  test('a bwrap that cannot build the sandbox is refused with its own error', async () => {
    const fake = join(scratch, 'bwrap');
    await writeFile(fake, '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.0"; exit 0; }\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const opened = await openToolSandbox({ mode: 'on', hide: [], readOnly: [], bwrap: fake });
    expect(opened).toMatchObject({ ok: false });
    if (!opened.ok) expect(opened.reason).toContain('bubblewrap cannot isolate tools on this machine: bwrap: No permissions to create new namespace');
  });

  test('off is no sandbox at all; modes parse like the service\'s booleans', async () => {
    const opened = await openToolSandbox({ mode: 'off', hide: ['/'], readOnly: [] });
    expect(opened).toMatchObject({ ok: true, sandbox: { kind: 'none' } });
    expect([parseSandboxMode(undefined), parseSandboxMode('OFF'), parseSandboxMode('false'), parseSandboxMode('on'), parseSandboxMode('maybe')]).toEqual([
      'on',
      'off',
      'off',
      'on',
      null,
    ]);
  });
});

describe(`a tool in the sandbox (agent ${asRoot ? 'as root' : 'unprivileged'})`, () => {
  test('hidden paths are empty, the engines inside them run, the uid is dropped when the agent is root', async () => {
    const { out, exit } = await run(`id -u; cat ${secretDir}/realm-key.json || echo no-key; ls -A ${secretDir}; ${secretDir}/engines/tool.sh`);
    expect(exit.code).toBe(0);
    expect(out[0]).toBe(String(asRoot ? sandboxUid : process.getuid?.()));
    expect(out).toContain('no-key');
    expect(out.join('\n')).not.toContain('top-secret-key');
    // Only the mount point of what was bound back is left in it.
    expect(out.slice(2)).toEqual(['engines', 'engine reachable']);
  });

  test('/proc shows only the sandbox: no agent, no parent environment', async () => {
    const { out } = await run(
      `echo ppid=$PPID; ls /proc | grep -c '^[0-9]'; cat /proc/${process.pid}/environ 2>/dev/null && echo AGENT-VISIBLE; tr '\\0' '\\n' < /proc/1/environ 2>/dev/null | grep -c . || echo init-environ-closed`,
    );
    expect(out[0]).toBe('ppid=1');
    expect(Number(out[1])).toBeLessThanOrEqual(6); // init, sh, ls, grep (and this pipeline's subshells)
    expect(out).not.toContain('AGENT-VISIBLE');
  });

  test('only the work directory and a private /tmp are writable; /tmp is gone after the run', async () => {
    const marker = `loadplane-sandbox-marker-${process.pid}`;
    const { out, left } = await run(
      `echo hi > result.txt && echo work-ok; echo x > /tmp/${marker} && echo tmp-ok; touch /etc/x 2>/dev/null || echo etc-ro; touch ${scratch}/x 2>/dev/null || echo scratch-hidden-or-ro`,
    );
    expect(out).toEqual(['work-ok', 'tmp-ok', 'etc-ro', 'scratch-hidden-or-ro']);
    expect(left).toContain('result.txt');
    expect(await readdir(tmpdir())).not.toContain(marker);
  });

  test('SIGTERM reaches the tool (not only the sandbox), which stops gracefully with its own exit code', async () => {
    const dir = await runner.makeWorkDir({ 'probe.sh': "trap 'echo stopping; exit 3' TERM\necho ready\nwhile :; do sleep 0.05; done\n" });
    const lines: string[] = [];
    const proc = await runner.spawn({ argv: ['sh', 'probe.sh'], cwd: dir.path, env, onLine: (_s, line) => lines.push(line) });
    await waitFor(() => lines.includes('ready'));
    proc.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 3, signal: null });
    expect(lines).toContain('stopping');
    // Zombies wait for the machine's init to reap them; the processes themselves are gone.
    await waitFor(() => !groupAlive(proc.pid));
    await dir.remove();
  });

  test('SIGKILL ends everything inside, children included', async () => {
    const dir = await runner.makeWorkDir({ 'probe.sh': "trap '' TERM\nsleep 300 &\necho ready\nwait\n" });
    const lines: string[] = [];
    const proc = await runner.spawn({ argv: ['sh', 'probe.sh'], cwd: dir.path, env, onLine: (_s, line) => lines.push(line) });
    await waitFor(() => lines.includes('ready'));
    proc.kill('SIGKILL');
    await proc.exited;
    // Zombies wait for the machine's init to reap them; the processes themselves are gone.
    await waitFor(() => !groupAlive(proc.pid));
    await dir.remove();
  });

  test('a leftover background child ends with the tool (its pid namespace goes), not after the drain grace', async () => {
    // A drain grace longer than the test's own timeout: had the child kept the output open until the grace killed it,
    // the run would not end in time. It ends because the child dies with the tool's pid namespace.
    const patient = createNodeProcessRunner({ sandbox, drainGraceMs: 10 * 60_000 });
    const leftover = uniqueSleep();
    const dir = await patient.makeWorkDir({ 'probe.sh': `sleep ${leftover} &\necho done` });
    const lines: string[] = [];
    const proc = await patient.spawn({ argv: ['sh', 'probe.sh'], cwd: dir.path, env, onLine: (_s, line) => lines.push(line) });
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    await dir.remove();
    expect(lines).toEqual(['done']);
    await waitFor(() => processTreeOf(leftover).length === 0, 30_000, `the leftover sleep ${leftover} to be gone`);
  });

  test('a missing program is a start error, as without the sandbox', async () => {
    const dir = await runner.makeWorkDir({});
    await expect(runner.spawn({ argv: ['no-such-program-loadplane'], cwd: dir.path, env, onLine: () => {} })).rejects.toThrow(
      'cannot start no-such-program-loadplane',
    );
    await dir.remove();
  });
});

describe('an unprivileged agent', () => {
  test('runs its tools in a user namespace with the same arguments: its own files hidden, its uid kept', async () => {
    // bubblewrap as an ordinary user (uid 65534 when the test runs as root), as an agent without root starts it; the
    // agent's home, outside /tmp, holds a secret. bwrap is run straight from here so the repository's location (a
    // root-only checkout) does not matter.
    const agentUid = asRoot ? sandboxUid : process.getuid!();
    const home = await mkdtemp('/var/tmp/loadplane-sandbox-home-');
    const workRoot = await mkdtemp(join(scratch, 'runs-'));
    const work = await mkdtemp(join(workRoot, 'run-'));
    try {
      await writeFile(join(home, 'token'), 'psk_agent-home-secret');
      for (const path of [home, join(home, 'token'), workRoot, work]) await chown(path, agentUid, agentUid);
      const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].find((path) => existsSync(path))!;
      const unprivileged = bubblewrapSandbox({ bwrap, hide: [{ path: home, directory: true }, { path: '/run', directory: true }], readOnly: [], workRoot });
      const script = `id -u; cat ${home}/token 2>/dev/null || echo no-token; ls -A ${home} | wc -l; ls /proc | grep -c '^[0-9]'; echo hi > out && echo wrote; unshare -U true 2>/dev/null || echo no-nested-userns`;
      const launch = unprivileged.command({ argv: ['sh', '-c', script], cwd: work, env });
      const argv = asRoot ? ['setpriv', `--reuid=${agentUid}`, `--regid=${agentUid}`, '--clear-groups', ...launch.argv] : launch.argv;
      const child = spawnSync(argv[0]!, argv.slice(1), { cwd: work, env: launch.env, encoding: 'utf8', timeout: 30_000 });
      expect(child.stderr).toBe('');
      const out = child.stdout.trim().split('\n');
      expect(out.slice(0, 3)).toEqual([String(agentUid), 'no-token', '0']);
      expect(Number(out[3])).toBeLessThanOrEqual(5);
      expect(out.slice(4)).toEqual(['wrote', 'no-nested-userns']);
      expect(child.status).toBe(0);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
