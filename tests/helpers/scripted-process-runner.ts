/** A process runner (core/ports/process-runner.ts) whose one process is a puppet: the test prints its lines and ends it. */
import type { ProcessRunner, SpawnOptions } from '../../core/ports/process-runner.ts';

export interface ScriptedProcess {
  options: SpawnOptions;
  /** A line the "tool" printed, read by the agent as a real one would be. */
  print(source: 'out' | 'err', line: string): void;
  exit(code: number | null, signal?: string | null): void;
  /** The signals the agent sent, in order. */
  signals: string[];
}

export function createScriptedRunner(): { runner: ProcessRunner; spawned: Promise<ScriptedProcess> } {
  let started!: (process: ScriptedProcess) => void;
  const spawned = new Promise<ScriptedProcess>((resolve) => (started = resolve));
  const runner: ProcessRunner = {
    async spawn(options) {
      let exited!: (exit: { code: number | null; signal: string | null }) => void;
      const process: ScriptedProcess = {
        options,
        print: (source, line) => options.onLine(source, line),
        exit: (code, signal = null) => exited({ code, signal }),
        signals: [],
      };
      started(process);
      return {
        pid: 4_242,
        exited: new Promise((resolve) => (exited = resolve)),
        kill: (signal = 'SIGTERM') => void process.signals.push(signal),
      };
    },
    makeWorkDir: async () => ({ path: '/scripted-run', remove: async () => {} }),
    tail: () => ({ stop: async () => {} }),
    which: async () => null,
  };
  return { runner, spawned };
}
