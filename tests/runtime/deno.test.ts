/** Boots the same service under Deno and makes an authenticated request: the core is runtime-agnostic. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findDeno, passwordGrant, startServiceProcess } from '../helpers/service-process.ts';

const deno = findDeno();
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('the service answers /healthz and an authenticated request on Deno', async () => {
  if (!deno) {
    if (process.env.CI) throw new Error('CI must run the Deno suite: install deno (.ci/run puts it in ~/.cache/loadplane/deno)');
    console.warn('skipped: deno not found (set DENO_BIN or run .ci/run once to install it)');
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-deno-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const service = await startServiceProcess({
    runtime: 'deno',
    timeoutMs: 120_000,
    // The runtime is under test here, not the database driver.
    embedded: true,
    env: {
      DATA_DIR: dataDir,
      LOCAL_AGENT: 'false',
      BOOTSTRAP_ADMIN_USERNAME: 'root',
      BOOTSTRAP_ADMIN_PASSWORD: 'deno-root-password',
      AUTH_CLIENT_SECRET: 'deno-client-secret',
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
    },
  });
  cleanups.push(() => service.stop());
  expect(service.output()).toContain('"runtime":"deno"');
  const health = await fetch(`${service.url}/healthz`);
  expect(await health.json()).toEqual({ status: 'ok' });

  const token = await passwordGrant(service.url, {
    username: 'root',
    password: 'deno-root-password',
    clientSecret: 'deno-client-secret',
  });
  const me = await fetch(`${service.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ preferred_username: 'root', roles: expect.arrayContaining(['admin']) });
  const anonymous = await fetch(`${service.url}/api/v1/machines`);
  expect(anonymous.status).toBe(401);
}, 180_000);
