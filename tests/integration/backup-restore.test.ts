/**
 * `loadplane backup` and `loadplane restore`, round trip, on embedded PGlite and on a PostgreSQL server: a service filled
 * through its API (populate-installation.ts) is backed up, the file restored into a fresh DATA_DIR / database, a service
 * started there, and verify-installation.ts finds everything working through the API (sign-in, tokens, runs with figures
 * and logs, an env var's value decrypted into a new run). On the way, the refusals: a backup or restore of the embedded
 * database while a service holds it, a restore into a target that is not empty (then --force), a restore into a
 * PostgreSQL database a replica is still connected to; the file is 0600 and the command says it holds secrets.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadplane } from '../helpers/loadplane-cli.ts';
import { populateInstallation } from '../helpers/populate-installation.ts';
import { postgresOrSkip, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { verifyInstallation } from '../helpers/verify-installation.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const admin = { username: 'admin', password: 'backup-admin-password-1' };

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Another database on the server the test already has (so never null). */
async function freshDatabase(): Promise<PostgresServer> {
  const postgres = (await startPostgresServer())!;
  cleanups.push(() => postgres.stop());
  return postgres;
}

/**
 * A service on `target` with a local agent that runs `custom` anywhere (unsandboxed: this suite is about data) and
 * webhooks allowed to loopback (the populated webhook targets it). `bootstrap`: the first start makes the admin.
 */
async function start(target: Record<string, string>, bootstrap: boolean): Promise<ServiceProcess> {
  const service = await startServiceProcess({
    env: {
      ...target,
      LOCAL_AGENT: 'true',
      AGENT_SANDBOX: 'false',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      ...(bootstrap ? { BOOTSTRAP_ADMIN_USERNAME: admin.username, BOOTSTRAP_ADMIN_PASSWORD: admin.password } : {}),
    },
    embedded: !target.DATABASE_URL,
  });
  cleanups.push(() => service.stop());
  return service;
}

async function populated(target: Record<string, string>) {
  const service = await start(target, true);
  const clientSecret = (await readFile(join(target.DATA_DIR!, 'auth-client-secret'), 'utf8')).trim();
  return { service, manifest: await populateInstallation({ url: service.url, clientSecret, admin }) };
}

async function expectBackupWritten(result: Awaited<ReturnType<typeof runLoadplane>>, file: string) {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('It holds every secret of this installation');
  expect(result.stdout).toContain('readable by you only (mode 600)');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
}

describe('backup and restore', () => {
  test('embedded PGlite: with the service stopped, into a fresh DATA_DIR', async () => {
    const source = { DATA_DIR: await tempDir('loadplane-backup-source-') };
    const { service, manifest } = await populated(source);
    const file = join(await tempDir('loadplane-backup-file-'), 'backup.sql.gz');

    // PGlite is one process's database: no backup while the service holds it, and nothing written.
    const refused = await runLoadplane(['backup', file], source);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`in use by a running Loadplane service (pid ${service.pid})`);
    expect(refused.stderr).toContain('stop that process first');
    expect(existsSync(file)).toBe(false);

    expect(await service.stop()).toBe(0);
    await expectBackupWritten(await runLoadplane(['backup', file], source), file);
    const again = await runLoadplane(['backup', file], source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists; choose another name, or --force to overwrite it');

    const target = { DATA_DIR: await tempDir('loadplane-backup-target-') };
    const restored = await runLoadplane(['restore', file], target);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('restored from');
    // A second restore finds the target in use: refused, then --force replaces it (in one transaction).
    const notEmpty = await runLoadplane(['restore', file], target);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain('the database is not empty');
    expect(notEmpty.stderr).toContain('--force replaces what they hold');
    const forced = await runLoadplane(['restore', file, '--force'], target);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);

    const copy = await start(target, false);
    const whileRunning = await runLoadplane(['restore', file, '--force'], target);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toContain(`in use by a running Loadplane service (pid ${copy.pid})`);
    await verifyInstallation(copy, target.DATA_DIR, manifest);
    expect(await copy.stop()).toBe(0);
  }, 300_000);

  test('PostgreSQL server: beside the running service, into a fresh database', async () => {
    const database = await postgresOrSkip();
    if (!database) return;
    cleanups.push(() => database.stop());
    const source = { DATA_DIR: await tempDir('loadplane-backup-source-'), DATABASE_URL: database.url };
    const { service, manifest } = await populated(source);
    // One REPEATABLE READ snapshot: no need to stop the service.
    const file = join(await tempDir('loadplane-backup-file-'), 'backup.sql');
    await expectBackupWritten(await runLoadplane(['backup', file], source), file);

    // Restoring over a database a replica still uses is refused, even with --force.
    const inUse = await runLoadplane(['restore', file, '--force'], source);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toContain('other session(s) are connected to the target database');
    expect(await service.stop()).toBe(0);

    const target = { DATA_DIR: await tempDir('loadplane-backup-target-'), DATABASE_URL: (await freshDatabase()).url };
    const restored = await runLoadplane(['restore', file], target);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const copy = await start(target, false);
    await verifyInstallation(copy, target.DATA_DIR, manifest);
    expect(await copy.stop()).toBe(0);
  }, 300_000);
});
