/** The process-runner port: starts a tool as its own process group, streams its output lines, and kills the whole tree. */

export interface RunningProcess {
  pid: number;
  /** Resolves once the process exited and its output was read to the end. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Signals the whole process group (the tool and everything it started). */
  kill(signal?: 'SIGTERM' | 'SIGKILL' | 'SIGINT'): void;
}

export interface SpawnOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  onLine(source: 'out' | 'err', line: string): void;
}

export interface ProcessRunner {
  spawn(options: SpawnOptions): Promise<RunningProcess>;
  /** A fresh private working directory with these files written (mode 0700 for executables named in `executables`). */
  makeWorkDir(files: Record<string, string>, executables?: string[]): Promise<{ path: string; remove(): Promise<void> }>;
  /** Reads appended lines of a file in the working directory as they arrive, until stopped. */
  tail(path: string, onLine: (line: string) => void): { stop(): Promise<void> };
  /** Looks a program up on PATH. */
  which(program: string): Promise<string | null>;
}
