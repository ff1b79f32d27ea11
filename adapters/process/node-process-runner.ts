/**
 * The process runner on Bun (and Node) with node:child_process: each tool runs in its own process group so one signal
 * reaches the tool and everything it started (k6, a shell script's children), inside the tool sandbox it is given.
 */
import { spawn as spawnChild } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import type { ProcessRunner, RunningProcess, SpawnOptions } from '../../core/ports/process-runner.ts';
import { tailFile } from './file-tail.ts';
import { defaultMaxLineLength, LineSplitter } from './line-splitter.ts';
import { type Signal, signalGroup, signalGroupButLeader } from './process-group.ts';
import { type ToolSandbox, unsandboxed } from './sandbox/tool-sandbox.ts';

export interface NodeProcessRunnerOptions {
  /** Where tools run (default: no sandbox; the agent opens one with openToolSandbox). */
  sandbox?: ToolSandbox;
  /** Where work directories go (default: the sandbox's work root, else the OS temp dir). */
  tmpRoot?: string;
  /** The PATH `which` searches (default: this process's PATH). */
  searchPath?: string;
  maxLineLength?: number;
  /**
   * After the tool exited, how long to wait for its output pipes to close. A leftover child holding them open
   * (a script's `server &`) is then killed with the rest of the group, so a run never outlives its tool.
   */
  drainGraceMs?: number;
  tailPollMs?: number;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A file name from a tool plugin, kept inside the work directory whatever it says. */
function safeRelative(name: string): string {
  const normal = normalize(name);
  if (!name || isAbsolute(name) || normal === '..' || normal.startsWith(`..${sep}`) || normal === '.') {
    throw new Error(`work file name "${name}" must be a relative path inside the work directory`);
  }
  return normal;
}

function describeSpawnError(argv: string[], cwd: string, error: NodeJS.ErrnoException): Error {
  const program = argv[0];
  const why =
    error.code === 'ENOENT'
      ? 'not found (check the path, or that it is installed and on PATH)'
      : error.code === 'EACCES'
        ? 'permission denied (is it executable?)'
        : error.message;
  return new Error(`cannot start ${program} in ${cwd}: ${why}`, { cause: error });
}

export function createNodeProcessRunner(options: NodeProcessRunnerOptions = {}): ProcessRunner {
  const maxLineLength = options.maxLineLength ?? defaultMaxLineLength;
  const drainGraceMs = options.drainGraceMs ?? 2_000;
  const searchPath = options.searchPath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const sandbox = options.sandbox ?? unsandboxed;
  // SIGTERM must reach the tool, not only the sandbox's monitor (see ToolSandbox.monitorLeadsGroup); SIGKILL ends all.
  const signalTool = (pid: number, signal: Signal) =>
    sandbox.monitorLeadsGroup && signal !== 'SIGKILL' ? signalGroupButLeader(pid, signal) : signalGroup(pid, signal);

  async function which(program: string): Promise<string | null> {
    if (!program) return null;
    if (program.includes('/')) return (await isExecutableFile(program)) ? resolve(program) : null;
    for (const dir of searchPath.split(delimiter)) {
      if (!dir) continue;
      const candidate = join(dir, program);
      if (await isExecutableFile(candidate)) return candidate;
    }
    return null;
  }

  async function spawn({ argv, cwd, env, onLine }: SpawnOptions): Promise<RunningProcess> {
    if (argv.length === 0 || !argv[0]) throw new Error('cannot start a process: empty argv');
    try {
      if (!(await stat(cwd)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new Error(`cannot start ${argv[0]}: working directory ${cwd} does not exist`);
    }

    // Inside a sandbox a missing program would only be bwrap's exit 1: say so before, as an unsandboxed spawn does.
    const checkable = !argv[0].includes('/') || isAbsolute(argv[0]);
    if (sandbox.kind !== 'none' && checkable && !(await which(argv[0]))) {
      throw describeSpawnError(argv, cwd, Object.assign(new Error('not found'), { code: existsSync(argv[0]) ? 'EACCES' : 'ENOENT' }));
    }
    // No stdin and a session of its own (detached: setsid()), so no controlling terminal a tool could inject input into.
    const launch = sandbox.command({ argv, cwd, env });
    let child: ReturnType<typeof spawnChild>;
    try {
      child = spawnChild(launch.argv[0]!, launch.argv.slice(1), { cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      throw describeSpawnError(argv, cwd, error as NodeJS.ErrnoException);
    }
    await new Promise<void>((started, failed) => {
      child.once('spawn', started);
      child.once('error', (error) => failed(describeSpawnError(argv, cwd, error as NodeJS.ErrnoException)));
    });
    // Later errors (a failed kill) must not become uncaught exceptions in the agent.
    child.on('error', () => {});
    const pid = child.pid!;

    const exited = new Promise<{ code: number | null; signal: string | null }>((settle) => {
      let exit: { code: number | null; signal: string | null } | null = null;
      let openStreams = 0;
      let graceTimer: ReturnType<typeof setTimeout> | null = null;
      const finish = () => {
        if (!exit || openStreams > 0) return;
        if (graceTimer) clearTimeout(graceTimer);
        settle(exit);
      };
      for (const [source, stream] of [['out', child.stdout], ['err', child.stderr]] as const) {
        if (!stream) continue;
        openStreams++;
        const splitter = new LineSplitter((line) => {
          try {
            onLine(source, line);
          } catch {
            // A consumer's bug must not surface as an uncaught exception inside a stream handler.
          }
        }, maxLineLength);
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          splitter.end();
          openStreams--;
          finish();
        };
        stream.on('data', (chunk: Uint8Array) => splitter.push(chunk));
        stream.once('end', end);
        stream.once('close', end);
        stream.once('error', end);
      }
      child.once('exit', (code, signal) => {
        exit = { code, signal };
        if (openStreams > 0) {
          graceTimer = setTimeout(() => {
            signalGroup(pid, 'SIGKILL');
            child.stdout?.destroy();
            child.stderr?.destroy();
          }, drainGraceMs);
        }
        finish();
      });
    });

    return { pid, exited, kill: (signal = 'SIGTERM') => signalTool(pid, signal) };
  }

  return {
    spawn,

    async makeWorkDir(files, executables = []) {
      const root = options.tmpRoot ?? sandbox.workRoot ?? tmpdir();
      const path = await mkdtemp(join(root, 'loadplane-run-'));
      await chmod(path, 0o700); // mkdtemp already does, but a umask or an odd tmp must not widen it
      const remove = () => rm(path, { recursive: true, force: true });
      try {
        const executable = new Set(executables.map(safeRelative));
        for (const [name, content] of Object.entries(files)) {
          const relative = safeRelative(name);
          const target = join(path, relative);
          await mkdir(dirname(target), { recursive: true, mode: 0o700 });
          await writeFile(target, content, { mode: 0o600 });
          // chmod after writing: the `mode` of writeFile is filtered through the umask.
          await chmod(target, executable.has(relative) ? 0o700 : 0o600);
        }
        await sandbox.prepareWorkDir(path);
      } catch (error) {
        await remove();
        throw error;
      }
      return { path, remove };
    },

    tail(path, onLine) {
      return tailFile(path, onLine, { pollMs: options.tailPollMs, maxLineLength });
    },

    which,
  };
}
