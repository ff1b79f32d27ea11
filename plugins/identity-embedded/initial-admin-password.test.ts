/** The generated admin password file lives only while it works: gone at a reset here, at the next start when changed elsewhere, kept across a hash upgrade. */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryDataFiles } from 'loadplane/plugin';
import { openDatabase } from 'loadplane/plugin/testing';
import identityEmbedded from './index.ts';
import { INITIAL_ADMIN_PASSWORD_FILE } from './initial-admin-password.ts';
import { createRealmUser, findRealmUserByUsername, setRealmUserPassword } from './realm-users.ts';
import { HARNESS_TIMEOUT_MS, type IdpHarness, startIdpHarness, TEST_PASSWORD_ITERATIONS } from './test-kernel.ts';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const ADMIN = { bootstrapAdmin: { username: 'admin' } };
const deletedLine = (idp: IdpHarness) =>
  idp.logs.filter((entry) => entry.message.startsWith(`deleted the data file ${INITIAL_ADMIN_PASSWORD_FILE}`));

async function resetPassword(idp: IdpHarness, adminToken: string, userId: string, value: string) {
  return idp.request(`/auth/admin/realms/loadplane/users/${userId}/reset-password`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'password', value, temporary: false }),
  });
}

describe('initial-admin-password', () => {
  test('is deleted as soon as the admin API resets the admin password, and the log says so', async () => {
    const files = createMemoryDataFiles();
    const idp = await startIdpHarness({ files, oidc: false, embedded: ADMIN });
    try {
      const password = (await files.read(INITIAL_ADMIN_PASSWORD_FILE))!.trim();
      const { access_token: adminToken } = await idp.login('admin', password);
      // Another user's new password leaves the admin's file alone.
      const other = await createRealmUser(idp.db, 'loadplane', { username: 'other', password: 'other-password' }, {
        passwordIterations: TEST_PASSWORD_ITERATIONS,
      });
      expect((await resetPassword(idp, adminToken, other.id, 'other-password-2')).status).toBe(204);
      expect(await files.read(INITIAL_ADMIN_PASSWORD_FILE)).not.toBeNull();
      expect(deletedLine(idp)).toHaveLength(0);

      const admin = (await findRealmUserByUsername(idp.db, 'loadplane', 'admin'))!;
      expect((await resetPassword(idp, adminToken, admin.id, 'chosen-by-the-admin')).status).toBe(204);
      expect(await files.read(INITIAL_ADMIN_PASSWORD_FILE)).toBeNull();
      expect(deletedLine(idp)).toHaveLength(1);
      expect(deletedLine(idp)[0]!.level).toBe('info');
      // The generated password was shown once, by design; after that neither password is in any log line.
      const shown = idp.logs.filter((entry) => entry.message.includes(password));
      expect(shown.map((entry) => entry.level)).toEqual(['warn']);
      const others = JSON.stringify(idp.logs.filter((entry) => !shown.includes(entry)));
      for (const secret of [password, 'chosen-by-the-admin']) expect(others).not.toContain(secret);
      await idp.login('admin', 'chosen-by-the-admin');
    } finally {
      await idp.stop();
    }
  }, HARNESS_TIMEOUT_MS);

  test('changed on another path while this replica was down: deleted at its next start; a hash upgrade keeps it', async () => {
    const pgliteDir = mkdtempSync(join(tmpdir(), 'loadplane-idp-initial-'));
    directories.push(pgliteDir);
    const files = createMemoryDataFiles();
    const first = await startIdpHarness({ files, pgliteDir, oidc: false, embedded: ADMIN });
    const password = (await files.read(INITIAL_ADMIN_PASSWORD_FILE))!.trim();
    await first.stop();

    // A costlier hash rewrites the stored hash at sign-in, but the password is the same: the file stays.
    const second = await startIdpHarness({ files, pgliteDir, oidc: false, embedded: { ...ADMIN, passwordIterations: 2 * TEST_PASSWORD_ITERATIONS } });
    try {
      await second.login('admin', password);
      expect(await files.read(INITIAL_ADMIN_PASSWORD_FILE)).not.toBeNull();
      expect(deletedLine(second)).toHaveLength(0);
    } finally {
      await second.stop();
    }

    // Another replica (here: straight through the database) changes the password while this one is down.
    const db = await openDatabase({ pgliteDir, entities: [...identityEmbedded.entities!], migrations: [...identityEmbedded.migrations!] });
    try {
      const admin = (await findRealmUserByUsername(db, 'loadplane', 'admin'))!;
      expect(await setRealmUserPassword(db, 'loadplane', admin.id, 'changed-elsewhere', { passwordIterations: TEST_PASSWORD_ITERATIONS })).toBe(true);
    } finally {
      await db.close();
    }

    const third = await startIdpHarness({ files, pgliteDir, oidc: false, embedded: ADMIN });
    try {
      expect(await files.read(INITIAL_ADMIN_PASSWORD_FILE)).toBeNull();
      expect(deletedLine(third)).toHaveLength(1);
      // Not regenerated either: the admin exists.
      expect(third.logs.some((entry) => entry.level === 'warn')).toBe(false);
      await third.login('admin', 'changed-elsewhere');
    } finally {
      await third.stop();
    }
  }, 3 * HARNESS_TIMEOUT_MS);
});
