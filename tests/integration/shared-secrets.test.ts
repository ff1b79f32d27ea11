/** Generated secrets live in the database: replicas with different DATA_DIRs agree, and an older install's files are imported once. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../adapters/db/open-database.ts';
import { coreEntities } from '../../core/domain/entities/index.ts';
import { coreMigrations } from '../../core/domain/migrations/index.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { REALM_KEY_FILE } from '../../plugins/identity-embedded/index.ts';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { adminPassword, startTestService } from '../helpers/test-service.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh database on the throwaway cluster, or null (skipped here, a failure under CI). */
async function cleanedPostgres() {
  const postgres = await postgresOrSkip();
  if (!postgres) return null;
  cleanups.push(() => postgres.stop());
  return postgres;
}

async function freshDir() {
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-secrets-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const start = async (options: Parameters<typeof startTestService>[0]) => {
  const service = await startTestService(options);
  cleanups.push(() => service.stop());
  return service;
};

test('two replicas without a shared DATA_DIR use one client secret, secret key and realm key', async () => {
  const postgres = await cleanedPostgres();
  if (!postgres) return;
  const [dirA, dirB] = [await freshDir(), await freshDir()];
  // An older single-node install left its client secret in DATA_DIR: it is kept, not replaced.
  await writeFile(join(dirA, 'auth-client-secret'), 'legacy-client-secret-from-disk\n');
  const a = await start({ database: postgres.url, dataDir: dirA });
  const b = await start({ database: postgres.url, dataDir: dirB });
  expect(a.service.clientSecret).toBe('legacy-client-secret-from-disk');
  expect(b.service.clientSecret).toBe(a.service.clientSecret);
  expect(b.service.secretKey).toBe(a.service.secretKey);
  expect(a.service.secretKey.length).toBeGreaterThanOrEqual(32);
  // Each DATA_DIR keeps a copy where the operator looks for the client secret.
  expect((await readFile(join(dirB, 'auth-client-secret'), 'utf8')).trim()).toBe(a.service.clientSecret);
  // A token signed by A's realm key is accepted by B.
  const token = await a.tokenFor('admin', 'admin-password-for-tests');
  expect((await b.request('/api/v1/auth/me', { token })).status).toBe(200);
}, 60_000);

/** What an install from before the shared store looks like: the secrets in DATA_DIR, none in the database. */
async function forgetStoredSecrets(database: { databaseUrl?: string; pgliteDir?: string }) {
  const db = await openDatabase({ ...database, entities: coreEntities, migrations: coreMigrations });
  try {
    await sqlOf(db).all('delete from service_secrets');
  } finally {
    await db.close();
  }
}

const readSecretFiles = async (dataDir: string) => ({
  clientSecret: (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim(),
  secretKey: (await readFile(join(dataDir, 'secret-key'), 'utf8')).trim(),
  realmKey: await readFile(join(dataDir, REALM_KEY_FILE), 'utf8'),
});

test('replicas booting at the same moment on a fresh database agree on every generated secret', async () => {
  const postgres = await cleanedPostgres();
  if (!postgres) return;
  // Both apply the migrations and generate their secrets at once; the first writer's values are everyone's.
  const [a, b] = await Promise.all([freshDir(), freshDir()].map(async (dir) => start({ database: postgres.url, dataDir: await dir })));
  expect(b.service.clientSecret).toBe(a.service.clientSecret);
  expect(b.service.secretKey).toBe(a.service.secretKey);
  expect(await readSecretFiles(b.dataDir)).toEqual(await readSecretFiles(a.dataDir));
  // Tokens issued by either replica open the API on the other.
  expect((await b.request('/api/v1/auth/me', { token: await a.tokenFor('admin', adminPassword) })).status).toBe(200);
  expect((await a.request('/api/v1/auth/me', { token: await b.tokenFor('admin', adminPassword) })).status).toBe(200);
}, 60_000);

test('PostgreSQL: an upgraded install imports its DATA_DIR secrets once; tokens issued before stay valid on every replica', async () => {
  const postgres = await cleanedPostgres();
  if (!postgres) return;
  const dirA = await freshDir();
  const before = await start({ database: postgres.url, dataDir: dirA });
  const oldToken = await before.tokenFor('admin', adminPassword);
  const old = { clientSecret: before.service.clientSecret, secretKey: before.service.secretKey };
  await before.stop();
  await forgetStoredSecrets({ databaseUrl: postgres.url });

  const a = await start({ database: postgres.url, dataDir: dirA });
  expect({ clientSecret: a.service.clientSecret, secretKey: a.service.secretKey }).toEqual(old);
  expect((await a.request('/api/v1/auth/me', { token: oldToken })).status).toBe(200);
  // A second replica whose DATA_DIR holds a secret of its own: the imported one wins there too, and its copy follows.
  const dirB = await freshDir();
  await writeFile(join(dirB, 'auth-client-secret'), 'another-replica-own-secret\n');
  const b = await start({ database: postgres.url, dataDir: dirB });
  expect({ clientSecret: b.service.clientSecret, secretKey: b.service.secretKey }).toEqual(old);
  expect(await readSecretFiles(dirB)).toEqual(await readSecretFiles(dirA));
  expect((await b.request('/api/v1/auth/me', { token: oldToken })).status).toBe(200);
}, 90_000);

test('PGlite: an upgraded embedded install imports its DATA_DIR secrets; a lost copy comes back from the database', async () => {
  const dataDir = await freshDir();
  const before = await start({ database: 'disk', dataDir });
  const oldToken = await before.tokenFor('admin', adminPassword);
  const old = { clientSecret: before.service.clientSecret, secretKey: before.service.secretKey };
  const files = await readSecretFiles(dataDir);
  await before.stop();
  await forgetStoredSecrets({ pgliteDir: join(dataDir, 'pglite') });

  const upgraded = await start({ database: 'disk', dataDir });
  expect({ clientSecret: upgraded.service.clientSecret, secretKey: upgraded.service.secretKey }).toEqual(old);
  expect((await upgraded.request('/api/v1/auth/me', { token: oldToken })).status).toBe(200);
  await upgraded.stop();

  // Imported once: from now on the database holds them, and DATA_DIR only a copy.
  await Promise.all(['auth-client-secret', 'secret-key', REALM_KEY_FILE].map((name) => rm(join(dataDir, name))));
  const restarted = await start({ database: 'disk', dataDir });
  expect({ clientSecret: restarted.service.clientSecret, secretKey: restarted.service.secretKey }).toEqual(old);
  expect(await readSecretFiles(dataDir)).toEqual(files);
  expect((await restarted.request('/api/v1/auth/me', { token: oldToken })).status).toBe(200);
}, 90_000);
