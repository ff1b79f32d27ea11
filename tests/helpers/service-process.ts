/** Starts the service as a real process (Bun or Deno) on a free loopback port, for tests that need real sockets or restarts. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type PostgresServer, startPostgresServer } from './postgres-server.ts';

export const repoRoot = resolve(import.meta.dir, '../..');

export interface ServiceProcess {
  url: string;
  port: number;
  pid: number;
  /** The DATABASE_URL the process runs on; null on embedded PGlite. */
  databaseUrl: string | null;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends `signal` (default SIGKILL: a crash) and waits for the exit; the database stays, for a restart. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM and wait for the exit code; then drops the database the helper created for this service. */
  stop(): Promise<number | null>;
  /**
   * The same service again (command, env, port, DATA_DIR and database): SIGTERM first, which must exit 0, unless the
   * process is already gone (a crash the test caused). The new handle owns the database from then on.
   */
  restart(): Promise<ServiceProcess>;
}

export interface ServiceProcessOptions {
  /**
   * The child's environment besides PATH and HOME, as given: leave LOCAL_AGENT (or anything else) out to get the
   * service's default; AGENT_CALIBRATION alone defaults to false here (set it to 'true' to calibrate). The helper sets PORT and HOST, and DATABASE_URL in the PostgreSQL pass (see startServiceProcess).
   */
  env: Record<string, string>;
  runtime?: 'bun' | 'deno';
  timeoutMs?: number;
  /** Reuse a port (agents reconnect to it); a free one otherwise. */
  port?: number;
  /** Stay on embedded PGlite even in the PostgreSQL pass (a suite about the embedded mode itself). */
  embedded?: boolean;
  /** A command the service runs under, before the runtime (a namespace that hides a program from it, say). */
  wrap?: readonly string[];
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

/** DATA_DIRs whose service ran on a database this helper made: starting one anew (not restart()) would lose that data. */
const dataDirsWithOwnDatabase = new Set<string>();

/** A fresh database for this service, or null: the caller's env names one, `embedded`, or not the PostgreSQL pass. */
async function ownDatabase(options: ServiceProcessOptions): Promise<PostgresServer | null> {
  if (options.env.DATABASE_URL || options.embedded || !process.env.DATABASE_URL) return null;
  const dataDir = options.env.DATA_DIR;
  if (dataDir && dataDirsWithOwnDatabase.has(dataDir)) {
    throw new Error(`a service already ran with DATA_DIR ${dataDir} on a database of its own: restart() it to keep that database`);
  }
  const server = await startPostgresServer();
  if (!server) throw new Error('DATABASE_URL is set but no PostgreSQL server could be reached for a service process');
  if (dataDir) dataDirsWithOwnDatabase.add(dataDir);
  return server;
}

/**
 * Starts the service as a real process and waits for /healthz. Its database: the caller's env DATABASE_URL; else, in
 * the PostgreSQL pass (DATABASE_URL set in the test process), a fresh database of its own, dropped on stop(); else
 * embedded PGlite under DATA_DIR. `embedded` keeps it on PGlite whatever the pass.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const database = await ownDatabase(options);
  try {
    return await launch(options, options.port ?? (await freePort()), database);
  } catch (error) {
    await database?.stop();
    throw error;
  }
}

async function launch(options: ServiceProcessOptions, port: number, ownedDatabase: PostgresServer | null): Promise<ServiceProcess> {
  let database = ownedDatabase;
  const command =
    (options.runtime ?? 'bun') === 'bun'
      ? [process.execPath, ['adapters/runtime/bun/main.ts']]
      : [findDeno() ?? 'deno', ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-write', '--allow-sys', 'adapters/runtime/deno/main.ts']];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    // The local agent's calibration (an engine process and its requests at start) would disturb suites that count them;
    // a suite about it sets AGENT_CALIBRATION itself.
    AGENT_CALIBRATION: 'false',
    ...options.env,
    ...(database ? { DATABASE_URL: database.url } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const argv = [...(options.wrap ?? []), command[0] as string, ...(command[1] as string[])];
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const url = `http://127.0.0.1:${port}`;

  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone()) throw new Error(`service exited with ${child.exitCode ?? child.signalCode} before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`service not ready after ${timeoutMs} ms:\n${output}`);
    }
    await Bun.sleep(100);
  }

  const terminate = async (): Promise<number | null> => {
    if (gone()) return child.exitCode;
    child.kill('SIGTERM');
    // Only a net against a stop that never ends (generous: a busy machine's orderly stop is slow, not failing); when it
    // fires, the exit code is null and the output says where the stop was.
    const timer = setTimeout(() => {
      console.error(`service-process: no exit 30 s after SIGTERM, killing it; its output ends:\n${output.split('\n').slice(-40).join('\n')}`);
      child.kill('SIGKILL');
    }, 30_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  /** The database passes to whoever takes it (stop drops it, restart hands it on); later calls get none. */
  const takeDatabase = () => {
    const taken = database;
    database = null;
    return taken;
  };

  return {
    url,
    port,
    pid: child.pid!,
    databaseUrl: env.DATABASE_URL ?? null,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (gone()) return;
      child.kill(signal);
      await exited;
    },
    async stop() {
      const code = await terminate();
      await takeDatabase()?.stop();
      return code;
    },
    async restart() {
      const crashed = gone();
      const code = await terminate();
      if (!crashed && code !== 0) throw new Error(`service exited with ${code} on SIGTERM before the restart:\n${output}`);
      const handedOver = takeDatabase();
      try {
        return await launch(options, port, handedOver);
      } catch (error) {
        await handedOver?.stop();
        throw error;
      }
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
