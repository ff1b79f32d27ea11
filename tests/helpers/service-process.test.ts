/** The service-process helper in the PostgreSQL pass: a database per service, kept by restart(), dropped by stop(); opt-outs make none. */
import { afterAll, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from './postgres-server.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from './service-process.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDir() {
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-service-process-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  LOCAL_AGENT: 'false',
  BOOTSTRAP_ADMIN_USERNAME: 'admin',
  BOOTSTRAP_ADMIN_PASSWORD: 'helper-admin-password',
  AUTH_CLIENT_SECRET: 'helper-client-secret',
});

/** Runs `body` as the PostgreSQL pass does (DATABASE_URL set in the test process), restoring the variable after. */
async function inPostgresPass<T>(body: () => Promise<T>): Promise<T> {
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL ||= 'postgres://marks-the-postgresql-pass';
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = before;
  }
}

async function databaseExists(observer: PostgresServer, name: string): Promise<boolean> {
  const sql = new SQL(observer.url);
  try {
    return (await sql`select 1 from pg_database where datname = ${name}`).length === 1;
  } finally {
    await sql.close();
  }
}

test('PostgreSQL pass: each service its own database; restart() keeps it and its data, stop() drops it', async () => {
  // Also keeps a throwaway cluster up while the service's own database comes and goes.
  const observer = await startPostgresServer();
  if (!observer) {
    if (process.env.CI) throw new Error(POSTGRES_SKIP_MESSAGE);
    console.warn(POSTGRES_SKIP_MESSAGE);
    return;
  }
  cleanups.push(() => observer.stop());
  const dataDir = await freshDir();
  await inPostgresPass(async () => {
    let service: ServiceProcess = await startServiceProcess({ env: env(dataDir) });
    cleanups.push(() => service.stop());
    expect(service.databaseUrl).toStartWith('postgres://');
    const name = new URL(service.databaseUrl!).pathname.slice(1);
    expect(await databaseExists(observer, name)).toBe(true);

    const token = await passwordGrant(service.url, { username: 'admin', password: 'helper-admin-password', clientSecret: 'helper-client-secret' });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${service.url}/api/v1/tests`, { method: 'POST', headers, body: JSON.stringify({ name: 'kept', tool: 'custom', script: 'echo ok' }) });
    expect(created.status).toBe(201);

    const before = [service.port, service.databaseUrl];
    service = await service.restart();
    expect([service.port, service.databaseUrl]).toEqual(before);
    const tests = (await (await fetch(`${service.url}/api/v1/tests`, { headers })).json()) as { name: string }[];
    expect(tests.map((t) => t.name)).toEqual(['kept']);
    // Starting that DATA_DIR anew would silently get an empty database: refused, restart() is the way.
    await expect(startServiceProcess({ env: env(dataDir) })).rejects.toThrow('restart()');

    expect(await service.stop()).toBe(0);
    expect(await databaseExists(observer, name)).toBe(false);

    // A DATABASE_URL in the caller's env is used as given, and left alone by stop().
    const own = await startPostgresServer();
    cleanups.push(() => own!.stop());
    const given = await startServiceProcess({ env: { ...env(await freshDir()), DATABASE_URL: own!.url } });
    cleanups.push(() => given.stop());
    expect(given.databaseUrl).toBe(own!.url);
    expect(await given.stop()).toBe(0);
    expect(await databaseExists(observer, new URL(own!.url).pathname.slice(1))).toBe(true);
  });
}, 120_000);

test('PostgreSQL pass: `embedded` stays on PGlite', async () => {
  await inPostgresPass(async () => {
    const embedded = await startServiceProcess({ env: env(await freshDir()), embedded: true });
    cleanups.push(() => embedded.stop());
    expect(embedded.databaseUrl).toBeNull();
    expect(await embedded.stop()).toBe(0);
  });
}, 60_000);
