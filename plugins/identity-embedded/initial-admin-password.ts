/**
 * The data file `initial-admin-password` lives only as long as the password in it works: once the admin's password
 * has changed (by any path, on any replica) the file is deleted, here at once and elsewhere at the next start.
 */
import type { DataFiles, Logger } from 'loadplane/plugin';
import { verifyPassword } from './password-hash.ts';
import { type DatabaseLike, loadUserEntityByUsername } from './realm-users.ts';

/** As Jenkins does: a newcomer finds the generated password here without reading any configuration. */
export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password';

export interface InitialPasswordCheck {
  db: DatabaseLike;
  files: DataFiles;
  logger: Logger;
  realm: string;
  username: string;
}

/**
 * Deletes the file when its password no longer signs the admin in (changed, or the admin is gone); true when it did.
 * Comparing against the stored hash, rather than watching for changes, covers every path: the admin API, another
 * replica, a restore, a SQL update; and a hash upgrade at sign-in, which keeps the password, keeps the file.
 */
export async function retireInitialAdminPassword(check: InitialPasswordCheck): Promise<boolean> {
  const { files, logger } = check;
  const content = await files.read(INITIAL_ADMIN_PASSWORD_FILE);
  if (content === null) return false;
  const admin = await loadUserEntityByUsername(check.db.fork(), check.realm, check.username);
  const password = content.trim();
  if (admin?.passwordHash && password !== '' && (await verifyPassword(password, admin.passwordHash))) return false;
  if (!(await files.remove(INITIAL_ADMIN_PASSWORD_FILE))) return false;
  logger.info(
    `deleted the data file ${INITIAL_ADMIN_PASSWORD_FILE}: the password of "${check.username}" has been changed since it was generated`,
    { file: INITIAL_ADMIN_PASSWORD_FILE, username: check.username, realm: check.realm },
  );
  return true;
}
