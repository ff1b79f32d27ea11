/** The real service process on PGlite (files under DATA_DIR) and on a PostgreSQL server: data and sign-in survive a restart. */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { passwordGrant, startServiceProcess } from '../helpers/service-process.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function scenario(databaseUrl: string | null) {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-restart-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A fixed PUBLIC_URL: the two processes listen on different ports, but tokens name one issuer.
  const env = {
    DATA_DIR: dataDir,
    LOCAL_AGENT: 'false',
    PUBLIC_URL: 'http://loadplane.test:8080',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };

  const first = await startServiceProcess({ env, embedded: databaseUrl === null });
  cleanups.push(() => first.stop());
  // No BOOTSTRAP_ADMIN_*: the service made `admin` with a generated password, printed once and kept in DATA_DIR.
  const password = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  expect(password.length).toBeGreaterThanOrEqual(16);
  expect(first.output()).toContain(password);
  const token = await passwordGrant(first.url, { username: 'admin', password, clientSecret });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const machine = await fetch(`${first.url}/api/v1/machines`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'gen', hostname: 'gen-1', ip_address: '127.0.0.1' }),
  });
  expect(machine.status).toBe(201);
  const testDef = await fetch(`${first.url}/api/v1/tests`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'smoke', tool: 'custom', script: 'echo ok' }),
  });
  expect(testDef.status).toBe(201);
  expect(await first.stop()).toBe(0);

  const second = await startServiceProcess({ env, embedded: databaseUrl === null });
  cleanups.push(() => second.stop());
  // The password is not printed again, and the generated files were not regenerated.
  expect(second.output()).not.toContain(password);
  expect((await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim()).toBe(clientSecret);
  // A token issued before the restart still verifies: the realm key was persisted, not regenerated.
  const machines = (await (await fetch(`${second.url}/api/v1/machines`, { headers: auth })).json()) as { hostname: string }[];
  expect(machines.map((m) => m.hostname)).toEqual(['gen-1']);
  const fresh = await passwordGrant(second.url, { username: 'admin', password, clientSecret });
  const tests = (await (await fetch(`${second.url}/api/v1/tests`, { headers: { authorization: `Bearer ${fresh}` } })).json()) as {
    name: string;
  }[];
  expect(tests.map((t) => t.name)).toEqual(['smoke']);
  expect(await second.stop()).toBe(0);
}

describe('restart keeps data', () => {
  test('embedded PGlite under DATA_DIR', () => scenario(null), 120_000);

  test('PostgreSQL server', async () => {
    const postgres = await postgresOrSkip();
    if (!postgres) return;
    cleanups.push(() => postgres.stop());
    await scenario(postgres.url);
  }, 120_000);
});
