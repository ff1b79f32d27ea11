/**
 * A bash session over several code blocks, as a reader pastes them one after the other into one terminal: variables
 * a block sets (TOKEN, TASK ...) are there for the next. Each block runs in a fresh bash that sources what the
 * previous ones exported, so a failure names its own block. `curl` fails on an HTTP error answer, so an example that
 * gets a 400 fails even when it pipes the answer on.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ShellResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface ShellSession {
  /** Runs `code` after the session's substitutions (made-up addresses to real ones); its output. */
  run(code: string, timeoutMs?: number): Promise<ShellResult>;
  /** Applies the substitutions only (for a block another runner starts). */
  rewrite(code: string): string;
  /** The bash prologue that restores the session's variables (for a block run in the background). */
  prologue(): string;
}

export interface ShellSessionOptions {
  cwd: string;
  /** Literal replacements, in order: `http://localhost:8080` to the test service's address, and the like. */
  substitutions: readonly (readonly [string, string])[];
  /** The session's starting environment (PATH and HOME at least). */
  env: Record<string, string>;
  /** Variables set before the first block, as an earlier example would have (TOKEN for a document without a quick start). */
  variables?: Record<string, string>;
}

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

let sessions = 0;

export function createShellSession(options: ShellSessionOptions): ShellSession {
  // One file per session: several documents' sessions may share a working directory.
  const state = join(options.cwd, `.example-session-${++sessions}.env`);
  const seed = Object.entries(options.variables ?? {})
    .map(([name, value]) => `export ${name}=${quote(value)}\n`)
    .join('');
  const rewrite = (code: string) => options.substitutions.reduce((text, [from, to]) => text.replaceAll(from, to), code);
  const prologue = () =>
    [
      // --fail-with-body: an HTTP error answer is a failure of the command (exit 22), its body still printed.
      'curl() { command curl --fail-with-body "$@"; }',
      seed,
      existsSync(state) ? `source ${quote(state)}` : '',
      'set -a -eo pipefail',
    ].join('\n');
  return {
    rewrite,
    prologue,
    async run(code, timeoutMs = 120_000) {
      const script = `${prologue()}\n${rewrite(code)}\nexport -p > ${quote(state)}\n`;
      // Not spawnSync: the test's own servers (the target, the webhook receiver) must answer while a block runs.
      const child = Bun.spawn(['bash', '-c', script], { cwd: options.cwd, env: options.env, stdout: 'pipe', stderr: 'pipe', timeout: timeoutMs });
      const [stdout, stderr, status] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      return { status, stdout, stderr: child.signalCode ? `${stderr}\nkilled by ${child.signalCode} after ${timeoutMs} ms` : stderr };
    },
  };
}

/** The JSON events of an SSE answer (`data: {...}` lines) in a block's output. */
export function sseEvents(stdout: string): { type: string; task?: Record<string, unknown>; text?: string; message?: string }[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}
