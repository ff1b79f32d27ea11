/** Runs `npm run agent` as a real process against a server, for tests that kill, restart and count agents. */
import { type ChildProcess, spawn } from 'node:child_process';
import { repoRoot } from './service-process.ts';

export interface AgentProcess {
  pid: number;
  output(): string;
  /** Waits until the agent logged its registration `times` times (reconnects register again). */
  registered(times?: number, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) once the process ended by itself or was killed. */
  exited(): Promise<number | null>;
}

export function startAgentProcess(options: {
  serverUrl: string;
  token: string;
  hostname: string;
  /** Another agent entry (a benchmark's variant); the real `npm run agent` entry by default. */
  entry?: string;
  extraArgs?: string[];
  /** More environment for the agent (an engine's variable, such as HEY_BIN). */
  env?: Record<string, string>;
}): AgentProcess {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      options.entry ?? 'adapters/runtime/bun/agent-main.ts',
      '--server',
      options.serverUrl,
      '--token',
      options.token,
      '--hostname',
      options.hostname,
      ...(options.extraArgs ?? []),
    ],
    { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    pid: child.pid!,
    output: () => output,
    async registered(times = 1, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while ((output.match(/agent registered/g) ?? []).length < times) {
        if (child.exitCode !== null) throw new Error(`agent exited with ${child.exitCode}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`agent did not register within ${timeoutMs} ms:\n${output}`);
        await Bun.sleep(50);
      }
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
    exited: () => exited,
  };
}
