/** Checks a username (or e-mail) and password the way Keycloak's direct grant does, with its error descriptions. */
import { burnPasswordCheck, hashPassword, MAX_PASSWORD_LENGTH, passwordHashNeedsUpgrade, verifyPassword } from './password-hash.ts';
import { type DatabaseLike, loadUserEntityByEmail, loadUserEntityByUsername, type RealmUser, toRealmUser } from './realm-users.ts';

export type SignInResult =
  | { ok: true; user: RealmUser }
  | { ok: false; status: 400 | 401; description: string };

const INVALID_CREDENTIALS = { ok: false, status: 401, description: 'Invalid user credentials' } as const;

export async function signInWithPassword(
  db: DatabaseLike,
  realm: string,
  login: { username?: string; password?: string },
  passwordIterations: number,
): Promise<SignInResult> {
  const { username = '', password = '' } = login;
  const em = db.fork();
  let user =
    username.trim() === '' || password.length > MAX_PASSWORD_LENGTH
      ? null
      : await loadUserEntityByUsername(em, realm, username);
  // Keycloak realms let users sign in with their e-mail address as well.
  if (!user && username.includes('@')) user = await loadUserEntityByEmail(em, realm, username);
  if (!user?.passwordHash) {
    // Same work as a real check: response time must not tell which usernames exist.
    await burnPasswordCheck(password.slice(0, MAX_PASSWORD_LENGTH), passwordIterations);
    return INVALID_CREDENTIALS;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return INVALID_CREDENTIALS;
  // Only after the password proved right, so these answers reveal nothing to a guesser.
  if (!user.enabled) return { ok: false, status: 400, description: 'Account disabled' };
  if (user.passwordTemporary) return { ok: false, status: 400, description: 'Account is not fully set up' };
  if (passwordHashNeedsUpgrade(user.passwordHash, passwordIterations)) {
    // The one moment we hold the plaintext: bring old hashes up to the configured cost.
    user.passwordHash = await hashPassword(password, passwordIterations);
    user.updatedAt = new Date();
    await em.flush();
  }
  return { ok: true, user: toRealmUser(user) };
}
