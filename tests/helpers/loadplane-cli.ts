/** Runs the `loadplane` program of this checkout as a process (as `npm run --silent loadplane -- ...` does) and collects its output. */
import { spawn } from 'node:child_process';
import { repoRoot } from './service-process.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `env` is the program's whole environment besides PATH and HOME: nothing of the test process leaks in (DATABASE_URL). */
export function runLoadplane(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['adapters/runtime/bun/loadplane.ts', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
