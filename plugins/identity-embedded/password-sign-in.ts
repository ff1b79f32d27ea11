/**
 * Checks a username (or e-mail) and password the way Keycloak's direct grant does, with its error descriptions,
 * behind brute-force detection: a locked account, or a name that failed from a throttled address, is refused before
 * any hashing.
 */
import type { Admission, BruteForceProtector } from './brute-force-protector.ts';
import { burnPasswordCheck, hashPassword, MAX_PASSWORD_LENGTH, passwordHashNeedsUpgrade, verifyPassword } from './password-hash.ts';
import { type HashAdmission, PasswordHashingBusy } from './password-hash-slots.ts';
import { type DatabaseLike, loadUserEntityByEmail, loadUserEntityByUsername, type RealmUser, toRealmUser } from './realm-users.ts';

export type SignInResult =
  | { ok: true; user: RealmUser }
  | { ok: false; kind: 'refused'; status: 400 | 401; description: string; username: string | null }
  | (Extract<Admission, { admitted: false }> & { ok: false; kind: 'locked' })
  | { ok: false; kind: 'busy'; retryAfterSeconds: number };

export interface SignInDeps {
  db: DatabaseLike;
  realm: string;
  passwordIterations: number;
  bruteForce: BruteForceProtector;
  hashAdmission: HashAdmission;
}

/** A sign-in that found no hashing slot may try again about this soon. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

const invalidCredentials = (username: string | null) =>
  ({ ok: false, kind: 'refused', status: 401, description: 'Invalid user credentials', username }) as const;

export async function signInWithPassword(
  deps: SignInDeps,
  login: { username?: string; password?: string },
  address: string | null,
): Promise<SignInResult> {
  const { db, realm, passwordIterations } = deps;
  const { username = '', password = '' } = login;
  const em = db.fork();
  let user =
    username.trim() === '' || password.length > MAX_PASSWORD_LENGTH
      ? null
      : await loadUserEntityByUsername(em, realm, username);
  // Keycloak realms let users sign in with their e-mail address as well.
  if (!user && username.includes('@')) user = await loadUserEntityByEmail(em, realm, username);
  // A known user is one account whichever name or e-mail is typed; an unknown name counts on its own, so a lockout
  // looks the same for names that exist and names that do not.
  const admission = await deps.bruteForce.begin({
    account: { userId: user?.id ?? null, username: user?.username ?? null, name: username },
    address,
  });
  if (!admission.admitted) return { ok: false, kind: 'locked', ...admission };
  const attempt = admission.attempt;

  let matches: boolean;
  try {
    if (user?.passwordHash) {
      matches = await verifyPassword(password, user.passwordHash, deps.hashAdmission);
    } else {
      // Same work as a real check: response time must not tell which usernames exist.
      await burnPasswordCheck(password.slice(0, MAX_PASSWORD_LENGTH), passwordIterations, deps.hashAdmission);
      matches = false;
    }
  } catch (error) {
    if (!(error instanceof PasswordHashingBusy)) throw error;
    await deps.bruteForce.abandoned(attempt);
    return { ok: false, kind: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  }
  if (!user || !matches) {
    await deps.bruteForce.failed(attempt);
    return invalidCredentials(user?.username ?? null);
  }
  await deps.bruteForce.succeeded(attempt);
  // Only after the password proved right, so these answers reveal nothing to a guesser.
  if (!user.enabled) return { ok: false, kind: 'refused', status: 400, description: 'Account disabled', username: user.username };
  if (user.passwordTemporary) {
    return { ok: false, kind: 'refused', status: 400, description: 'Account is not fully set up', username: user.username };
  }
  if (passwordHashNeedsUpgrade(user.passwordHash!, passwordIterations)) {
    // The one moment we hold the plaintext: bring old hashes up to the configured cost.
    user.passwordHash = await hashPassword(password, passwordIterations);
    user.updatedAt = new Date();
    await em.flush();
  }
  return { ok: true, user: toRealmUser(user) };
}
