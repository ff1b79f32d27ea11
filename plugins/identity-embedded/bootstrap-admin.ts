/** Creates the configured first administrator when absent; a generated password is shown once and kept in a data file until it is changed. */
import { type DataFiles, DomainError, type Logger } from 'loadplane/plugin';
import { INITIAL_ADMIN_PASSWORD_FILE, retireInitialAdminPassword } from './initial-admin-password.ts';
import { generatePassword } from './password-hash.ts';
import { createRealmUser, type DatabaseLike, findRealmUserByUsername } from './realm-users.ts';

export { INITIAL_ADMIN_PASSWORD_FILE } from './initial-admin-password.ts';
export const BOOTSTRAP_ADMIN_ROLES = ['admin', 'user'] as const;

export interface BootstrapAdminInput {
  db: DatabaseLike;
  files: DataFiles;
  logger: Logger;
  realm: string;
  admin: { username: string; password?: string };
  passwordIterations: number;
}

export type BootstrapAdminOutcome = 'exists' | 'created' | 'created-with-generated-password';

export async function ensureBootstrapAdmin(input: BootstrapAdminInput): Promise<BootstrapAdminOutcome> {
  const { db, files, logger, realm, admin } = input;
  // An existing user keeps its password: the configured one only seeds the very first start. A generated one left
  // in DATA_DIR goes once the admin has changed it (perhaps on another replica, or while this one was down).
  if (await findRealmUserByUsername(db, realm, admin.username)) {
    await retireInitialAdminPassword({ db, files, logger, realm, username: admin.username });
    return 'exists';
  }
  const password = admin.password ?? generatePassword();
  try {
    await createRealmUser(
      db,
      realm,
      { username: admin.username, enabled: true, realmRoles: BOOTSTRAP_ADMIN_ROLES, password },
      { passwordIterations: input.passwordIterations },
    );
  } catch (error) {
    // Another replica created it between our look-up and insert: it exists, which is all we wanted (its file, if
    // any, is on that replica's disk).
    if (error instanceof DomainError && error.code === 'conflict') return 'exists';
    throw error;
  }
  if (admin.password !== undefined) {
    logger.info('created the bootstrap admin', { username: admin.username, realm });
    return 'created';
  }
  // Log first: should the file write fail, the password has still been shown once and is not lost.
  logger.warn(
    `created the bootstrap admin "${admin.username}" with the generated password ${password} ` +
      `- it is shown only this once and saved in the data file ${INITIAL_ADMIN_PASSWORD_FILE}; sign in and change it`,
    { username: admin.username, realm, file: INITIAL_ADMIN_PASSWORD_FILE },
  );
  await files.write(INITIAL_ADMIN_PASSWORD_FILE, `${password}\n`, { secret: true });
  return 'created-with-generated-password';
}
