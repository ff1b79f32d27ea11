/** Brute-force detection for the password checks of the token endpoint and the login form: per account and per client address. */
import type { BruteForceSettings } from './config.ts';
import type { LockSubject } from './brute-force-policy.ts';
import type { LockoutAudit } from './lockout-audit.ts';
import type { CountedKey, LoginFailureStore, LoginKey } from './login-failures.ts';

export interface AttemptSubjects {
  /** The user the name resolves to; the name itself (lower-cased) when none does, so unknown names lock alike. */
  account: { userId: string | null; username: string | null; name: string };
  /** The client's address; null when unknown (an in-process request), which skips the address limit. */
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

  const keysOf = (subjects: AttemptSubjects): LoginKey[] => [
    { kind: 'account', subject: accountSubject(subjects.account), userId: subjects.account.userId },
    ...(subjects.address !== null && settings.addressFailureFactor > 0
      ? [{ kind: 'address' as const, subject: subjects.address, userId: null }]
      : []),
  ];

  return {
    settings,

    /** Before any hashing: refuses a locked account or address, else counts the attempt as a failure in advance. */
    async begin(subjects: AttemptSubjects): Promise<Admission> {
      if (!settings.enabled) return { admitted: true, attempt: { subjects, counted: [] } };
      const result = await store.countAttempt(keysOf(subjects), now(), settings, subjects.address);
      if (!result.admitted) return { admitted: false, subject: result.key.kind, retryAfterSeconds: result.remainingSeconds };
      return { admitted: true, attempt: { subjects, counted: result.keys } };
    },

    /** The password was wrong: the failure stands; a lock it set is written to the audit log. */
    async failed(attempt: Attempt): Promise<void> {
      for (const { key, counted } of attempt.counted) {
        if (counted.waitSeconds === 0 && !counted.lockedPermanently) continue;
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

    /** The password was right: the account starts over (as in Keycloak); the address only takes this attempt back. */
    async succeeded(attempt: Attempt): Promise<void> {
      for (const entry of attempt.counted) {
        if (entry.key.kind === 'account') await store.forget(entry.key);
        else await store.takeBack(entry);
      }
    },

    /** The password was never checked (no hashing slot): nothing happened, so nothing counts. */
    async abandoned(attempt: Attempt): Promise<void> {
      for (const entry of attempt.counted) await store.takeBack(entry);
    },
  };
}

export type BruteForceProtector = ReturnType<typeof createBruteForceProtector>;
