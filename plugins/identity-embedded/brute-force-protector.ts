/**
 * Brute-force detection for the password checks of the token endpoint and the login form: a lock per account, and a
 * throttle per client address that refuses only the names which failed from that address.
 */
import type { BruteForceSettings } from './config.ts';
import type { LockSubject } from './brute-force-policy.ts';
import type { LockoutAudit } from './lockout-audit.ts';
import type { CountedKey, LoginFailureStore, LoginKey } from './login-failures.ts';

export interface AttemptSubjects {
  /** The user the name resolves to; the name itself (lower-cased) when none does, so unknown names lock alike. */
  account: { userId: string | null; username: string | null; name: string };
  /** The client's address; null when unknown (an in-process request), which skips the address throttle. */
  address: string | null;
}

export interface Attempt {
  subjects: AttemptSubjects;
  counted: CountedKey[];
}

export type Admission =
  | { admitted: true; attempt: Attempt }
  /** `retryAfterSeconds` null: locked until an admin clears it. */
  | { admitted: false; subject: LockSubject; retryAfterSeconds: number | null };

/** Longest name kept as a subject; longer ones are cut (they cannot be usernames anyway). */
const MAX_SUBJECT_LENGTH = 300;

export function accountSubject(subjects: AttemptSubjects['account']): string {
  return subjects.userId ?? `name:${subjects.name.trim().toLowerCase().slice(0, MAX_SUBJECT_LENGTH)}`;
}

export function createBruteForceProtector(input: {
  settings: BruteForceSettings;
  store: LoginFailureStore;
  audit: LockoutAudit;
  now?: () => Date;
}) {
  const { settings, store, audit } = input;
  const now = input.now ?? (() => new Date());

  const keysOf = (subjects: AttemptSubjects): LoginKey[] => {
    const account = accountSubject(subjects.account);
    const { userId } = subjects.account;
    if (subjects.address === null || settings.addressFailureFactor <= 0) return [{ kind: 'account', subject: account, userId }];
    return [
      { kind: 'account', subject: account, userId },
      // Counts every name's failures from the address: past the factor, the address is throttled...
      { kind: 'address', subject: subjects.address, userId: null },
      // ...for the names that failed from it, which this row counts (a user's row goes with the user).
      { kind: 'address-account', subject: `${subjects.address} ${account}`, userId },
    ];
  };

  return {
    settings,

    /**
     * Before any hashing: refuses a locked account, or a throttled address for a name that failed from it; else counts
     * the attempt as a failure in advance.
     */
    async begin(subjects: AttemptSubjects): Promise<Admission> {
      if (!settings.enabled) return { admitted: true, attempt: { subjects, counted: [] } };
      const result = await store.countAttempt(keysOf(subjects), now(), settings, subjects.address);
      if (!result.admitted) return { admitted: false, subject: result.subject, retryAfterSeconds: result.remainingSeconds };
      return { admitted: true, attempt: { subjects, counted: result.keys } };
    },

    /** The password was wrong: the failure stands; a lock or throttle it set is written to the audit log. */
    async failed(attempt: Attempt): Promise<void> {
      for (const { key, previous, counted } of attempt.counted) {
        if (key.kind === 'address-account' || (counted.waitSeconds === 0 && !counted.lockedPermanently)) continue;
        // A throttled address still counts the names it may try: one entry when its throttle starts, not one per guess.
        if (key.kind === 'address' && previous?.notBefore && previous.notBefore.getTime() > counted.lastFailure.getTime()) continue;
        await audit.record({
          kind: key.kind,
          userId: key.kind === 'account' ? attempt.subjects.account.userId : null,
          username: key.kind === 'account' ? attempt.subjects.account.username : null,
          address: attempt.subjects.address,
          failures: counted.numFailures,
          lockedUntil: counted.lockedPermanently ? null : counted.notBefore,
          waitSeconds: counted.waitSeconds,
          permanent: counted.lockedPermanently,
        });
      }
    },

    /**
     * The password was right: the account starts over (as in Keycloak), and so does this name from this address; the
     * address only takes this attempt back, so one right password does not lift a throttle a guesser earned.
     */
    async succeeded(attempt: Attempt): Promise<void> {
      for (const entry of attempt.counted) {
        if (entry.key.kind === 'address') await store.takeBack(entry);
        else await store.forget(entry.key);
      }
    },

    /** The password was never checked (no hashing slot): nothing happened, so nothing counts. */
    async abandoned(attempt: Attempt): Promise<void> {
      for (const entry of attempt.counted) await store.takeBack(entry);
    },
  };
}

export type BruteForceProtector = ReturnType<typeof createBruteForceProtector>;
