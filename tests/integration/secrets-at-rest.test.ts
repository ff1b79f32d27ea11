/**
 * Secrets at rest in DATA_DIR: every key and secret file owner-only (0600, directories 0700, looser ones from an
 * older install tightened), and the generated admin password deleted once the admin has changed it: at once on the
 * replica that changed it, at the next start on a replica that still has it.
 */
import { afterAll, expect, test } from 'bun:test';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIAL_ADMIN_PASSWORD_FILE, REALM_KEY_FILE } from '../../plugins/identity-embedded/index.ts';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const REALM = 'loadplane';
const SECRET_FILES = [REALM_KEY_FILE, 'auth-client-secret', 'secret-key', INITIAL_ADMIN_PASSWORD_FILE];
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDir() {
  const dir = await mkdtemp(join(tmpdir(), 'loadplane-at-rest-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const running = new Set<TestService>();

/** A service as a newcomer starts it: no BOOTSTRAP_ADMIN_PASSWORD, so `admin` gets a generated one. */
async function start(dataDir: string, database?: string): Promise<TestService> {
  const service = await startTestService({ dataDir, port: await freePort(), env: { BOOTSTRAP_ADMIN_PASSWORD: '' }, ...(database ? { database } : {}) });
  running.add(service);
  cleanups.push(() => stop(service));
  await service.listen();
  return service;
}

async function stop(service: TestService): Promise<void> {
  if (running.delete(service)) await service.stop();
}

const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

async function passwordGrant(service: TestService, username: string, password: string) {
  return fetch(`${service.url}/auth/realms/${REALM}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: service.service.clientId,
      client_secret: service.service.clientSecret,
      username,
      password,
    }),
  });
}

async function adminToken(service: TestService, password: string): Promise<string> {
  const answer = await passwordGrant(service, 'admin', password);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** The admin resets their own password through Keycloak's admin API, over the socket. */
async function resetAdminPassword(service: TestService, token: string, value: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const users = (await (await fetch(`${service.url}/auth/admin/realms/${REALM}/users?username=admin&exact=true`, { headers })).json()) as {
    id: string;
  }[];
  const answer = await fetch(`${service.url}/auth/admin/realms/${REALM}/users/${users[0]!.id}/reset-password`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ type: 'password', value, temporary: false }),
  });
  expect(answer.status).toBe(204);
}

const exists = (path: string) => stat(path).then(() => true, () => false);

test('secret files are 0600 in 0700 directories, and the initial admin password goes at the reset', async () => {
  const dataDir = await freshDir();
  // What an older install or a loose umask left behind: readable by everyone.
  await chmod(dataDir, 0o755);
  await mkdir(join(dataDir, 'identity'), { mode: 0o755 });
  await writeFile(join(dataDir, 'auth-client-secret'), 'legacy-client-secret\n', { mode: 0o644 });
  const service = await start(dataDir);

  expect(await mode(dataDir)).toBe('700');
  expect(await mode(join(dataDir, 'identity'))).toBe('700');
  for (const file of SECRET_FILES) expect([file, await mode(join(dataDir, file))]).toEqual([file, '600']);

  const password = (await readFile(join(dataDir, INITIAL_ADMIN_PASSWORD_FILE), 'utf8')).trim();
  const token = await adminToken(service, password);
  // Signing in with it changes nothing: the file stays until the password is changed.
  expect(await exists(join(dataDir, INITIAL_ADMIN_PASSWORD_FILE))).toBe(true);
  await resetAdminPassword(service, token, 'the-admins-own-choice');
  expect(await exists(join(dataDir, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);
  expect((await passwordGrant(service, 'admin', password)).status).toBe(401);
  await adminToken(service, 'the-admins-own-choice');
}, 60_000);

test('changed on another replica: deleted at once there (it has none), and at the next start of the one that has it', async () => {
  const postgres = await postgresOrSkip();
  if (!postgres) return;
  cleanups.push(() => postgres.stop());
  const [dirA, dirB] = [await freshDir(), await freshDir()];
  const a = await start(dirA, postgres.url);
  const b = await start(dirB, postgres.url);
  // Only the replica that created the admin has the password file.
  const password = (await readFile(join(dirA, INITIAL_ADMIN_PASSWORD_FILE), 'utf8')).trim();
  expect(await exists(join(dirB, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);

  await resetAdminPassword(b, await adminToken(b, password), 'changed-on-b');
  // A was not told; its copy no longer works, and goes at its next start.
  expect(await exists(join(dirA, INITIAL_ADMIN_PASSWORD_FILE))).toBe(true);
  await stop(a);
  const restarted = await start(dirA, postgres.url);
  expect(await exists(join(dirA, INITIAL_ADMIN_PASSWORD_FILE))).toBe(false);
  await adminToken(restarted, 'changed-on-b');
}, 120_000);
