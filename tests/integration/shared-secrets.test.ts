/** Generated secrets live in the database: replicas with different DATA_DIRs agree, and an older install's files are imported once. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDir() {
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-secrets-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('two replicas without a shared DATA_DIR use one client secret, secret key and realm key', async () => {
  const postgres = await startPostgresServer();
  if (!postgres) {
    if (process.env.CI) throw new Error(POSTGRES_SKIP_MESSAGE);
    console.warn(POSTGRES_SKIP_MESSAGE);
    return;
  }
  cleanups.push(() => postgres.stop());
  const [dirA, dirB] = [await freshDir(), await freshDir()];
  // An older single-node install left its client secret in DATA_DIR: it is kept, not replaced.
  await writeFile(join(dirA, 'auth-client-secret'), 'legacy-client-secret-from-disk\n');
  const start = async (dataDir: string) => {
    const service: TestService = await startTestService({ database: postgres.url, dataDir, env: { AUTH_CLIENT_SECRET: '' } });
    cleanups.push(() => service.stop());
    return service;
  };
  const a = await start(dirA);
  const b = await start(dirB);
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
