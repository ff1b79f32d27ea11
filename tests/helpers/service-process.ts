/** Starts the service as a real process (Bun or Deno) on a free loopback port, for tests that need real sockets or restarts. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startPostgresServer } from './postgres-server.ts';

export const repoRoot = resolve(import.meta.dir, '../..');

export interface ServiceProcess {
  url: string;
  port: number;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The Deno binary: DENO_BIN, the CI cache, or `deno` on PATH; null when none is installed. */
export function findDeno(): string | null {
  const candidates = [process.env.DENO_BIN, join(homedir(), '.cache/loadplane/deno/node_modules/.bin/deno')];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'deno'))) return join(dir, 'deno');
  return null;
}

/** One database per DATA_DIR: a restarted service (same DATA_DIR) finds its data again. */
const databasesByDataDir = new Map<string, Promise<string>>();

/**
 * The database of a service process: the caller's DATABASE_URL; else, when this test run is the PostgreSQL pass
 * (DATABASE_URL set in the test process), a fresh database on the test server, so real-process suites run on
 * PostgreSQL too; else embedded PGlite. `embedded` keeps a suite on PGlite whatever the pass.
 */
async function databaseEnv(env: Record<string, string>, embedded: boolean): Promise<Record<string, string>> {
  if (env.DATABASE_URL || embedded || !process.env.DATABASE_URL) return {};
  const key = env.DATA_DIR ?? crypto.randomUUID();
  let url = databasesByDataDir.get(key);
  if (!url) {
    url = startPostgresServer().then((server) => {
      if (!server) throw new Error('DATABASE_URL is set but no PostgreSQL server could be reached for a service process');
      return server.url;
    });
    databasesByDataDir.set(key, url);
  }
  return { DATABASE_URL: await url };
}

export async function startServiceProcess(options: {
  env: Record<string, string>;
  runtime?: 'bun' | 'deno';
  timeoutMs?: number;
  /** Reuse a port (a restart that agents reconnect to); a free one otherwise. */
  port?: number;
  /** Stay on embedded PGlite even in the PostgreSQL pass (a suite about the embedded mode itself). */
  embedded?: boolean;
}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const database = await databaseEnv(options.env, options.embedded ?? false);
  const runtime = options.runtime ?? 'bun';
  const command =
    runtime === 'bun'
      ? [process.execPath, ['adapters/runtime/bun/main.ts']]
      : [findDeno() ?? 'deno', ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-write', '--allow-sys', 'adapters/runtime/deno/main.ts']];
  const child: ChildProcess = spawn(command[0] as string, command[1] as string[], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env, ...database, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service not ready after ${options.timeoutMs ?? 60_000} ms:\n${output}`);
    }
    await Bun.sleep(100);
  }

  return {
    url,
    port,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A password-grant access token from the service's embedded IdP. */
export async function passwordGrant(
  url: string,
  credentials: { username: string; password: string; clientSecret: string; realm?: string; clientId?: string },
): Promise<string> {
  const response = await fetch(`${url}/auth/realms/${credentials.realm ?? 'loadplane'}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: credentials.clientId ?? 'loadplane',
      client_secret: credentials.clientSecret,
      username: credentials.username,
      password: credentials.password,
    }),
  });
  if (response.status !== 200) throw new Error(`password grant failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
