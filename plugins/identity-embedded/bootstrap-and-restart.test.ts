/** Bootstrap admin at setup, and what survives a restart: the realm key, users and their passwords. */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createMemoryDataFiles } from 'loadplane/plugin';
import { INITIAL_ADMIN_PASSWORD_FILE } from './bootstrap-admin.ts';
import { DEFAULT_PASSWORD_ITERATIONS } from './config.ts';
import { IdpUser } from './entities/idp-user.ts';
import { parsePasswordHash } from './password-hash.ts';
import { REALM_KEY_FILE } from './realm-key.ts';
import { createRealmUser, findRealmUserByUsername } from './realm-users.ts';
import { HARNESS_TIMEOUT_MS, startIdpHarness, TEST_PASSWORD_ITERATIONS } from './test-kernel.ts';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('bootstrap admin', () => {
  test('generated password: logged once, written to the data file, survives a restart with key and users', async () => {
    const pgliteDir = mkdtempSync(join(tmpdir(), 'loadplane-idp-'));
    directories.push(pgliteDir);
    const files = createMemoryDataFiles();

    const first = await startIdpHarness({ files, pgliteDir, embedded: { bootstrapAdmin: { username: 'admin' } } });
    let before: { kid: string; accessToken: string; refreshToken: string; password: string };
    try {
      const password = (await files.read(INITIAL_ADMIN_PASSWORD_FILE))?.trim() ?? '';
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      const warnings = first.logs.filter((entry) => entry.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain(password);
      expect(warnings[0]!.message).toContain(INITIAL_ADMIN_PASSWORD_FILE);
      // Never in the structured fields, which log pipelines index.
      expect(JSON.stringify(warnings[0]!.fields)).not.toContain(password);

      const tokens = await first.login('admin', password);
      expect(decodeJwt(tokens.access_token).realm_access).toEqual({ roles: ['admin', 'user'] });
      expect((await first.verifier.verify(tokens.access_token)).roles).toEqual(['admin', 'user']);
      await createRealmUser(first.db, 'loadplane', { username: 'kept', password: 'kept-password' }, {
        passwordIterations: TEST_PASSWORD_ITERATIONS,
      });
      before = {
        kid: decodeProtectedHeader(tokens.access_token).kid!,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        password,
      };
    } finally {
      await first.stop();
    }

    // Restart on the same data files and database; a configured password must not overwrite the existing one.
    const second = await startIdpHarness({
      files,
      pgliteDir,
      embedded: { bootstrapAdmin: { username: 'admin', password: 'configured-later' } },
    });
    try {
      expect(second.logs.filter((entry) => entry.level === 'warn')).toHaveLength(0);
      expect(second.logs.some((entry) => entry.message === 'generated the realm signing key')).toBe(false);
      const { keys } = await (await second.request('/auth/realms/loadplane/protocol/openid-connect/certs')).json();
      expect(keys[0].kid).toBe(before.kid);

      // Tokens of before the restart still verify, and the session still refreshes.
      expect((await second.verifier.verify(before.accessToken)).preferred_username).toBe('admin');
      expect((await second.token({ grant_type: 'refresh_token', refresh_token: before.refreshToken })).status).toBe(200);

      expect((await second.token({ grant_type: 'password', username: 'admin', password: 'configured-later' })).status).toBe(401);
      await second.login('admin', before.password);
      await second.login('kept', 'kept-password');
    } finally {
      await second.stop();
    }
  }, 2 * HARNESS_TIMEOUT_MS);

  test('a configured password creates the user with it and writes no password file', async () => {
    const files = createMemoryDataFiles();
    const idp = await startIdpHarness({ files, oidc: false, embedded: { bootstrapAdmin: { username: 'Boss', password: 'boss-password' } } });
    try {
      expect(await files.read(INITIAL_ADMIN_PASSWORD_FILE)).toBeNull();
      expect(await files.read(REALM_KEY_FILE)).toContain('"privateJwk"');
      const tokens = await idp.login('boss', 'boss-password');
      expect(decodeJwt(tokens.access_token).realm_access).toEqual({ roles: ['admin', 'user'] });
      expect(idp.logs.some((entry) => entry.level === 'warn')).toBe(false);
    } finally {
      await idp.stop();
    }
  }, HARNESS_TIMEOUT_MS);

  test('unset passwordIterations hashes with 210000 PBKDF2-SHA512 rounds, as Keycloak', async () => {
    const idp = await startIdpHarness({
      oidc: false,
      embedded: { passwordIterations: undefined, bootstrapAdmin: { username: 'admin', password: 'slow-but-safe' } },
    });
    try {
      expect(DEFAULT_PASSWORD_ITERATIONS).toBe(210_000);
      const admin = await findRealmUserByUsername(idp.db, 'loadplane', 'admin');
      const row = await idp.db.fork().findOneOrFail(IdpUser, { id: admin!.id });
      expect(row.passwordHash!.startsWith('pbkdf2-sha512$210000$')).toBe(true);
      expect(parsePasswordHash(row.passwordHash!)).toMatchObject({ algorithm: 'pbkdf2-sha512', iterations: 210_000 });
      // The helper's own default is the same.
      const helper = await createRealmUser(idp.db, 'loadplane', { username: 'direct', password: 'direct-password' });
      const helperRow = await idp.db.fork().findOneOrFail(IdpUser, { id: helper.id });
      expect(parsePasswordHash(helperRow.passwordHash!)?.iterations).toBe(210_000);
    } finally {
      await idp.stop();
    }
  }, HARNESS_TIMEOUT_MS);

  test('a weaker stored hash is upgraded to the configured cost at the next sign-in', async () => {
    const idp = await startIdpHarness({ oidc: false, embedded: { passwordIterations: 2000 } });
    try {
      const user = await createRealmUser(idp.db, 'loadplane', { username: 'old', password: 'old-password' }, { passwordIterations: 1000 });
      await idp.login('old', 'old-password');
      const row = await idp.db.fork().findOneOrFail(IdpUser, { id: user.id });
      expect(parsePasswordHash(row.passwordHash!)?.iterations).toBe(2000);
      await idp.login('old', 'old-password');
    } finally {
      await idp.stop();
    }
  }, HARNESS_TIMEOUT_MS);
});
