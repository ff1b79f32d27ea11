/** Runs `loadplane agent` (`npm run agent`) as a real process against a server, for tests that kill, restart and count agents. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './service-process.ts';

export interface AgentProcess {
  pid: number;
  /** Its state directory (machine key): the one given, or a fresh one removed when the agent exits. */
  stateDir: string;
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
  /** Another agent entry (a benchmark's variant, given `--server` and `--token`); `loadplane agent` by default. */
  entry?: string;
  /** The agent's state directory (its machine key), to start the same agent again; a fresh one by default. */
  stateDir?: string;
  extraArgs?: string[];
  /** More environment for the agent (an engine's variable, such as HEY_BIN). */
  env?: Record<string, string>;
}): AgentProcess {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'loadplane-agent-state-'));
  // The real program takes its token from the environment, as an operator should give it (never in `ps`).
  const entry = options.entry ? [options.entry, '--token', options.token] : ['adapters/runtime/bun/loadplane.ts', 'agent'];
  const child: ChildProcess = spawn(process.execPath, [...entry, '--server', options.serverUrl, '--hostname', options.hostname, ...(options.extraArgs ?? [])], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'info',
      LOADPLANE_TOKEN: options.token,
      AGENT_STATE_DIR: stateDir,
      // Off unless a test asks (env AGENT_CALIBRATION: 'true'): its engine process and requests would disturb those counted.
      AGENT_CALIBRATION: 'false',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
      done(code);
    }),
  );
  return {
    pid: child.pid!,
    stateDir,
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
