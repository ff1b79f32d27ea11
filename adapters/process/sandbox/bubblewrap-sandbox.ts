/**
 * The bubblewrap sandbox (https://github.com/containers/bubblewrap, Debian `bubblewrap`): each tool gets its own pid,
 * ipc and mount namespaces, a read-only view of the machine with the agent's secrets masked by empty tmpfs mounts, a
 * fresh /proc that shows only its own processes, a private /tmp, and its work directory as the only writable place.
 * The network namespace is shared on purpose: a load tool must reach its targets, loopback ones included.
 */
import { chown, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ToolSandbox } from './tool-sandbox.ts';

export interface BubblewrapOptions {
  /** The bwrap executable. */
  bwrap: string;
  /** Directories (or files) the tool must not see: each becomes an empty tmpfs (a file: /dev/null). Absolute, real paths. */
  hide: { path: string; directory: boolean }[];
  /** Paths inside hidden ones the tool may still read (the load tools' binaries), bound read-only after the masks. */
  readOnly: string[];
  /** Where work directories are made; masked as a whole, so a run sees only its own. */
  workRoot: string;
  /**
   * When the agent runs as root: the unprivileged uid/gid the tool runs as, switched to by `setpriv` inside the
   * sandbox (bubblewrap run by root keeps root's capabilities, so the masks alone would not hold against root).
   */
  dropTo?: { uid: number; gid: number; setpriv: string };
  /** bubblewrap's version line, for the summary. */
  version?: string;
}

/** `path` is `ancestor` or lies inside it. */
function isUnder(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(ancestor.endsWith('/') ? ancestor : `${ancestor}/`);
}

/** The bwrap arguments before the work directory's bind: every run of this sandbox shares them. */
export function bubblewrapBaseArgs(options: BubblewrapOptions): string[] {
  const args = [
    '--unshare-pid',
    '--unshare-ipc',
    // The tool dies with its sandbox: killing bwrap (or the agent that started it) ends everything inside.
    '--die-with-parent',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    // A procfs of the new pid namespace: /proc/1 is bubblewrap's init, /proc/$PPID is no longer the agent.
    '--proc', '/proc',
    '--perms', '1777', '--tmpfs', '/tmp',
  ];
  // Without root, bubblewrap works in a user namespace; the tool may not make another (defence in depth: the kernel
  // already keeps the masks locked in any namespace it could make).
  if (!options.dropTo) args.push('--unshare-user', '--disable-userns');
  // Parents first, and nothing under a path masked already (a mount there would only reveal the name).
  const hidden = [...options.hide].sort((a, b) => a.path.length - b.path.length);
  const masks: { path: string; directory: boolean }[] = [{ path: '/tmp', directory: true }];
  const covered = (path: string) => masks.some((mask) => isUnder(path, mask.path));
  const pushMask = (mask: { path: string; directory: boolean }) =>
    mask.directory ? args.push('--tmpfs', mask.path) : args.push('--ro-bind', '/dev/null', mask.path);
  for (const entry of hidden) {
    if (covered(entry.path)) continue;
    masks.push(entry);
    pushMask(entry);
  }
  // Mount points bubblewrap makes for a bind copy the modes of the real parents (0700 under a root-only home or work
  // root): make the parents first, traversable, so the tool's user reaches what is bound for it.
  for (const path of options.readOnly) {
    if (!covered(path)) continue; // visible anyway
    args.push('--perms', '0755', '--dir', dirname(path), '--ro-bind', path, path);
  }
  // A read-only path that holds a hidden one (K6_BIN inside DATA_DIR's parent) must not bring it back.
  for (const entry of hidden) if (options.readOnly.some((path) => covered(path) && isUnder(entry.path, path))) pushMask(entry);
  // The work root: empty and traversable inside (each run binds its own directory into it), whatever it is outside.
  if (covered(options.workRoot)) args.push('--perms', '0711', '--dir', options.workRoot);
  else args.push('--perms', '0711', '--tmpfs', options.workRoot);
  return args;
}

export function bubblewrapSandbox(options: BubblewrapOptions): ToolSandbox {
  const base = bubblewrapBaseArgs(options);
  const drop = options.dropTo;
  const dropArgv = drop
    ? [drop.setpriv, `--reuid=${drop.uid}`, `--regid=${drop.gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--']
    : [];
  const hidden = options.hide.map((entry) => entry.path);
  const summary = [
    `${options.version ?? 'bubblewrap'}: own pid, ipc and mount namespaces, shared network`,
    drop ? `tools run as uid ${drop.uid}` : 'tools run as this user in a user namespace',
    `hidden: ${hidden.join(', ') || 'nothing'}`,
    `read-only inside them: ${options.readOnly.join(', ') || 'nothing'}`,
    'writable: the run\'s work directory and a private /tmp',
  ].join('; ');

  return {
    kind: 'bubblewrap',
    summary,
    workRoot: options.workRoot,
    monitorLeadsGroup: true,

    async prepareWorkDir(path) {
      if (!drop) return;
      // Root made it 0700: the tool's user must own it to write its output (k6's sample file) there.
      const walk = async (dir: string): Promise<void> => {
        await chown(dir, drop.uid, drop.gid);
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const child = join(dir, entry.name);
          if (entry.isDirectory()) await walk(child);
          else await chown(child, drop.uid, drop.gid);
        }
      };
      await walk(path);
    },

    command({ argv, cwd, env }) {
      return {
        argv: [options.bwrap, ...base, '--bind', cwd, cwd, '--chdir', cwd, '--', ...dropArgv, ...argv],
        // The real home is masked (and not the tool's user's anyway): the work directory is the only writable home.
        env: { ...env, HOME: cwd },
      };
    },

    async dispose() {
      await rm(options.workRoot, { recursive: true, force: true });
    },
  };
}
