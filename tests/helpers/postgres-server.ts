// A fresh PostgreSQL database for a test suite: on TEST_POSTGRES_URL's server, else on a throwaway local cluster.
//
// Every call creates its own uniquely named database and drops it on stop(), so suites that run in
// parallel or repeatedly never share state. Without TEST_POSTGRES_URL the helper starts one throwaway
// cluster per test process from the PostgreSQL server binaries it finds (initdb refuses to run as root,
// so as root it runs them as the `postgres` user via runuser), and stops it when the last database of
// the process is released, or at process exit at the latest. With neither it returns null, and the
// caller skips with `POSTGRES_SKIP_MESSAGE`.
import { SQL } from 'bun';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PostgresServer {
  /** postgres://user[:password]@127.0.0.1:port/<fresh database> */
  url: string;
  /** Drops the database (and stops the throwaway cluster once nothing uses it). Safe to call twice. */
  stop(): Promise<void>;
}

export const POSTGRES_SKIP_MESSAGE =
  'no PostgreSQL server (set TEST_POSTGRES_URL=postgres://user:pass@host:port/db of a role with CREATEDB, ' +
  'or install the server binaries, e.g. `apt-get install -y postgresql`)';

export async function startPostgresServer(): Promise<PostgresServer | null> {
  const external = process.env.TEST_POSTGRES_URL?.trim();
  if (external) return createDatabaseOn(external, async () => {});

  const binDir = findPostgresBinDir();
  if (!binDir) return null;
  const cluster = await acquireCluster(binDir);
  return createDatabaseOn(cluster.adminUrl, () => releaseCluster());
}

// ---------------------------------------------------------------------------------------------------
// Databases

async function createDatabaseOn(serverUrl: string, release: () => Promise<void>): Promise<PostgresServer> {
  const name = `lp_test_${Date.now().toString(36)}_${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;
  try {
    await withConnection(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  } catch (error) {
    await release();
    throw new Error(`could not create test database on ${redact(serverUrl)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let stopped = false;
  return {
    url: url.toString(),
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        // FORCE (PostgreSQL 13+) ends connections a suite left open, e.g. an ORM pool not closed.
        await dropDatabase(serverUrl, name);
      } finally {
        await release();
      }
    },
  };
}

/**
 * Drops a test database, ending what still holds it. A role without pg_signal_backend cannot end an autovacuum worker
 * busy in it (its process belongs to no role: SQLSTATE 42501), so that case waits for the worker and tries again.
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withConnection(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      return;
    } catch (error) {
      if ((error as { errno?: string }).errno !== '42501' || attempt >= 20) throw error;
      await Bun.sleep(500);
    }
  }
}

/** Connects with explicit fields so PG* environment variables cannot redirect the connection. */
async function withConnection<T>(serverUrl: string, fn: (sql: SQL) => Promise<T>): Promise<T> {
  const u = new URL(serverUrl);
  const sql = new SQL({
    adapter: 'postgres',
    hostname: decodeURIComponent(u.hostname),
    port: Number(u.port || 5432),
    username: decodeURIComponent(u.username) || 'postgres',
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || 'postgres',
    max: 1,
    connectionTimeout: 10,
  });
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

// ---------------------------------------------------------------------------------------------------
// The throwaway cluster: one per process, reference-counted.

interface Cluster {
  adminUrl: string;
  stopSync(): void;
}

let clusterPromise: Promise<Cluster> | null = null;
let clusterUsers = 0;

async function acquireCluster(binDir: string): Promise<Cluster> {
  clusterUsers++;
  clusterPromise ??= startCluster(binDir);
  try {
    return await clusterPromise;
  } catch (error) {
    clusterUsers--;
    clusterPromise = null;
    throw error;
  }
}

async function releaseCluster(): Promise<void> {
  clusterUsers--;
  if (clusterUsers > 0 || !clusterPromise) return;
  const pending = clusterPromise;
  clusterPromise = null;
  (await pending).stopSync();
}

/** Highest-versioned server binaries: $POSTGRES_BIN_DIR, Debian's layout, then PATH. */
export function findPostgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.POSTGRES_BIN_DIR) candidates.push(process.env.POSTGRES_BIN_DIR);
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debianRoot, v, 'bin')));
  }
  candidates.push('/usr/local/pgsql/bin');
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(dir);
  return (
    candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((bin) => existsSync(join(dir, bin)))) ?? null
  );
}

async function startCluster(binDir: string): Promise<Cluster> {
  const asRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | null = null;
  if (asRoot) {
    owner = lookupUser('postgres');
    if (!owner) throw new Error('running as root, but there is no `postgres` user to run initdb as');
  }
  // Short path: the unix socket path (dir + "/.s.PGSQL.<port>") must stay under ~107 bytes.
  const dir = mkdtempSync(join(tmpdir(), 'lp-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  if (owner) chownSync(dir, owner.uid, owner.gid);

  // As root every server binary runs as `postgres`; otherwise as the current user.
  const command = (bin: string, args: string[]): [string, string[]] =>
    owner ? ['runuser', ['-u', 'postgres', '--', join(binDir, bin), ...args]] : [join(binDir, bin), args];
  const run = (bin: string, args: string[]) => {
    const [file, argv] = command(bin, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (result.status !== 0) {
      const reason = result.error?.message ?? `exit ${result.status ?? result.signal}`;
      throw new Error(`${bin} failed (${reason}):\n${result.stdout ?? ''}${result.stderr ?? ''}${safeRead(logFile)}`);
    }
  };
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopSync);
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      const [file, argv] = command('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30']);
      spawnSync(file, argv, { cwd: dir, stdio: 'ignore', timeout: 60_000 });
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    // A suite that never calls stop() must not leave a server running after the test process.
    process.on('exit', stopSync);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=200',
      ].join(' ');
      try {
        run('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', options]);
        return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stopSync };
      } catch (error) {
        // Another process may have taken the port between the probe and the start.
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    stopSync();
    throw error;
  }
}

function lookupUser(name: string): { uid: number; gid: number } | null {
  for (const line of safeRead('/etc/passwd').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  const id = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const [u, g] = [id('-u'), id('-g')];
  return u.status === 0 && g.status === 0 ? { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) } : null;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** A loopback port nobody listens on right now (the kernel picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * A throwaway PostgreSQL server for a suite, or null where there is none: under CI that is a failure (every suite
 * runs there), elsewhere the suite says why and skips.
 */
export async function postgresOrSkip(): Promise<PostgresServer | null> {
  const server = await startPostgresServer();
  if (server) return server;
  if (process.env.CI) throw new Error(`CI must run the PostgreSQL suite: ${POSTGRES_SKIP_MESSAGE}`);
  console.warn(POSTGRES_SKIP_MESSAGE);
  return null;
}
