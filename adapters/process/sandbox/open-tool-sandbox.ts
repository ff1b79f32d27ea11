/**
 * Picks and checks the tool sandbox at agent start: bubblewrap with the agent's secrets hidden (AGENT_SANDBOX=on, the
 * default), or none (off). A sandbox that cannot start here is reported with the reason and a way out, never skipped
 * silently: the agent then offers only the tools that run no code of the test's author (`http`).
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';
import { type ToolSandbox, unsandboxed } from './tool-sandbox.ts';

export type SandboxMode = 'on' | 'off';

/** `on`/`off` (also true/false, yes/no, 1/0, as the service's AGENT_SANDBOX); blank: on; anything else: null. */
export function parseSandboxMode(raw: string | undefined): SandboxMode | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (['', 'on', 'true', 'yes', '1'].includes(value)) return 'on';
  if (['off', 'false', 'no', '0'].includes(value)) return 'off';
  return null;
}

/** The uid/gid a tool runs as when the agent is root: nobody/nogroup on Debian, alone in its namespaces. */
export const sandboxUid = 65534;

export interface OpenToolSandboxOptions {
  mode: SandboxMode;
  /** What the tool must not see (DATA_DIR, the agent's home and working directory); missing paths are skipped. */
  hide: string[];
  /** What it may still read inside those (the load tools' binaries); missing paths are skipped. */
  readOnly: string[];
  /** Where to look for bwrap and setpriv (default: PATH, then /usr/bin). */
  searchPath?: string;
  /** bwrap's path, instead of the lookup (tests point it at a missing file). */
  bwrap?: string;
  /** The agent's uid (default: this process's). */
  uid?: number;
  tmpRoot?: string;
}

export type OpenedSandbox = { ok: true; sandbox: ToolSandbox } | { ok: false; reason: string };

const offHint = 'set AGENT_SANDBOX=off (npm run agent: --sandbox off) to run tools without isolation, at your own risk';

async function isExecutable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function findProgram(name: string, searchPath: string): Promise<string | null> {
  for (const dir of [...searchPath.split(delimiter), '/usr/bin', '/bin']) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return null;
}

/** Existing paths, resolved through symlinks (a mount must name the real place), without duplicates. */
async function realPaths(paths: string[]): Promise<{ path: string; directory: boolean }[]> {
  const found = new Map<string, boolean>();
  for (const path of paths) {
    try {
      const real = await realpath(resolve(path));
      found.set(real, (await stat(real)).isDirectory());
    } catch {
      // missing: nothing to hide or to show
    }
  }
  return [...found].map(([path, directory]) => ({ path, directory }));
}

/** Masking one of these would hide the system the tool runs on; the masks are for the agent's own places. */
const systemPaths = new Set(['/', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/dev', '/proc', '/sys', '/var', '/opt', '/srv', '/home', '/tmp']);

function run(file: string, args: string[], options: { env: Record<string, string>; cwd: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(file, args, { ...options, timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr || (error && !stderr ? error.message : '')) });
    });
  });
}

export async function openToolSandbox(options: OpenToolSandboxOptions): Promise<OpenedSandbox> {
  if (options.mode === 'off') return { ok: true, sandbox: unsandboxed };
  const searchPath = options.searchPath ?? process.env.PATH ?? '';
  const bwrap = options.bwrap ?? (await findProgram('bwrap', searchPath));
  if (!bwrap || !(await isExecutable(bwrap))) {
    return { ok: false, reason: `bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt-get install bubblewrap); ${offHint}` };
  }
  const uid = options.uid ?? process.getuid?.() ?? -1;
  let dropTo: { uid: number; gid: number; setpriv: string } | undefined;
  if (uid === 0) {
    const setpriv = await findProgram('setpriv', searchPath);
    if (!setpriv) return { ok: false, reason: `the agent runs as root and setpriv (util-linux) is missing to drop to an unprivileged user; ${offHint}` };
    dropTo = { uid: sandboxUid, gid: sandboxUid, setpriv };
  }

  const workRoot = await mkdtemp(join(options.tmpRoot ?? tmpdir(), 'loadplane-runs-'));
  // Only the agent reaches the work directories from outside; inside, each run sees its own through a bind mount.
  await chmod(workRoot, 0o700);
  const hide = (await realPaths(options.hide)).filter((entry) => !systemPaths.has(entry.path));
  // Sockets of the machine's services live in /run (PostgreSQL's peer authentication trusts the socket's user).
  hide.push({ path: '/run', directory: true });
  const readOnly = (await realPaths(options.readOnly)).map((entry) => entry.path);
  // The resolver's configuration often points into /run (systemd-resolved): names must still resolve.
  const resolver = (await realPaths(['/etc/resolv.conf']))[0];
  if (resolver && resolver.path.startsWith('/run/')) readOnly.push(resolver.path);

  const version = (await run(bwrap, ['--version'], { env: {}, cwd: workRoot })).stdout.trim();
  const sandbox = bubblewrapSandbox({ bwrap, hide, readOnly, workRoot, dropTo, version });

  // Proof that it works here, as a tool would start: user namespaces may be off, a container may forbid mounts.
  const probeDir = await mkdtemp(join(workRoot, 'probe-'));
  try {
    await sandbox.prepareWorkDir(probeDir);
    const probe = sandbox.command({ argv: ['id', '-u'], cwd: probeDir, env: { PATH: '/usr/bin:/bin' } });
    const result = await run(probe.argv[0]!, probe.argv.slice(1), { env: probe.env, cwd: probeDir });
    const expectedUid = String(dropTo ? dropTo.uid : uid);
    if (result.code !== 0 || result.stdout.trim() !== expectedUid) {
      await sandbox.dispose();
      const why = result.stderr.trim().split('\n')[0] || `the probe answered "${result.stdout.trim()}", expected uid ${expectedUid}`;
      const hint = uid === 0 ? '' : ' (unprivileged user namespaces must be enabled: sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0)';
      return { ok: false, reason: `bubblewrap cannot isolate tools on this machine: ${why}${hint}; ${offHint}` };
    }
  } finally {
    await rm(probeDir, { recursive: true, force: true });
  }
  return { ok: true, sandbox };
}
