/** The login-failure rows of a realm: counted and checked in one transaction per attempt, so concurrent guesses on any replica count one by one. */
import { type EntityManager, LockMode } from '@mikro-orm/core';
import { CompiledQuery, type Kysely } from 'kysely';
import {
  type AttemptStates,
  countFailure,
  type CountedFailure,
  type FailureState,
  type LockSubject,
  type LoginKeyKind,
  refusalOf,
} from './brute-force-policy.ts';
import type { BruteForceSettings } from './config.ts';
import { IdpLoginFailure } from './entities/idp-login-failure.ts';
import type { DatabaseLike } from './realm-users.ts';

export interface LoginKey {
  kind: LoginKeyKind;
  subject: string;
  userId: string | null;
}

export interface CountedKey {
  key: LoginKey;
  previous: FailureState | null;
  counted: CountedFailure;
}

export type AttemptCount =
  | { admitted: true; keys: CountedKey[] }
  | { admitted: false; subject: LockSubject; remainingSeconds: number | null };

/** Raw SQL with bound parameters ($1...): a typed name never becomes SQL text. Inside `transactional` it joins the transaction. */
const run = (em: EntityManager, sql: string, params: readonly unknown[]) =>
  (em as unknown as { getKysely(): Kysely<unknown> }).getKysely().executeQuery(CompiledQuery.raw(sql, [...params]));

/** The order rows are locked in: one order for every attempt, so two attempts never wait on each other crosswise. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Lapsed rows are ignored anyway; the sweep only keeps the table small. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const stateOf = (row: IdpLoginFailure): FailureState | null =>
  row.numFailures > 0 || row.lockedPermanently
    ? { numFailures: row.numFailures, lastFailure: row.lastFailure, notBefore: row.notBefore ?? null, lockedPermanently: row.lockedPermanently }
    : null;

export function createLoginFailureStore(db: DatabaseLike, realm: string) {
  let lastSweep = 0;

  const sweep = async (now: Date, settings: BruteForceSettings) => {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    const lapsedBefore = new Date(now.getTime() - settings.maxDeltaTimeSeconds * 1000);
    await db.fork().nativeDelete(IdpLoginFailure, {
      realm,
      lastFailure: { $lt: lapsedBefore },
      lockedPermanently: false,
      $or: [{ notBefore: null }, { notBefore: { $lt: now } }],
    });
  };

  return {
    /**
     * Refuses a locked account, or a throttled address for a name that failed from it (refusalOf); otherwise counts
     * this attempt as a failure on every key before the password is even hashed (it is taken back if the password
     * proves right). Rows are locked in one order, so concurrent attempts queue: the one that reaches the limit locks,
     * and the ones behind it find the lock.
     */
    async countAttempt(
      keys: readonly LoginKey[],
      now: Date,
      settings: BruteForceSettings,
      address: string | null,
    ): Promise<AttemptCount> {
      await sweep(now, settings);
      const ordered = [...keys].sort((a, b) => (a.kind === b.kind ? compare(a.subject, b.subject) : compare(a.kind, b.kind)));
      return db.fork().transactional(async (em) => {
        const rows: IdpLoginFailure[] = [];
        for (const key of ordered) {
          // The row must exist to be locked; a new one counts nothing until it is updated below.
          await run(
            em,
            `insert into idp_login_failures (realm, kind, subject, user_id, num_failures, last_failure, locked_permanently)
             values ($1, $2, $3, $4, 0, now(), false) on conflict (realm, kind, subject) do nothing`,
            [realm, key.kind, key.subject, key.userId],
          );
          rows.push(
            await em.findOneOrFail(
              IdpLoginFailure,
              { realm, kind: key.kind, subject: key.subject },
              { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
            ),
          );
        }
        const states: AttemptStates = { account: null, address: null, addressAccount: null };
        for (const [index, row] of rows.entries()) {
          const kind = ordered[index]!.kind;
          states[kind === 'address-account' ? 'addressAccount' : kind] = stateOf(row);
        }
        const refusal = refusalOf(settings, states, now);
        if (refusal) return { admitted: false, subject: refusal.subject, remainingSeconds: refusal.retryAfterSeconds };
        const counted = rows.map((row, index): CountedKey => {
          const key = ordered[index]!;
          const previous = stateOf(row);
          const next = countFailure(settings, key.kind, previous, now);
          row.numFailures = next.numFailures;
          row.lastFailure = next.lastFailure;
          row.notBefore = next.notBefore;
          row.lockedPermanently = next.lockedPermanently;
          row.userId ??= key.userId;
          if (address !== null) row.lastAddress = address;
          return { key, previous, counted: next };
        });
        return { admitted: true, keys: counted };
      });
    },

    /** Takes back an attempt counted in advance (the password was right, or it was never checked). */
    async takeBack(entry: CountedKey): Promise<void> {
      const { key, previous, counted } = entry;
      await db.fork().transactional(async (em) => {
        const row = await em.findOne(
          IdpLoginFailure,
          { realm, kind: key.kind, subject: key.subject },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        if (!row) return;
        row.numFailures = Math.max(0, row.numFailures - 1);
        // Only the lock this attempt set is lifted; a later attempt's lock stays.
        if (counted.notBefore && row.notBefore?.getTime() === counted.notBefore.getTime()) row.notBefore = previous?.notBefore ?? null;
        if (counted.lockedPermanently && !previous?.lockedPermanently) row.lockedPermanently = false;
      });
    },

    /** A successful sign-in clears the account's failures, as Keycloak does, and the name's from that address. */
    async forget(key: LoginKey): Promise<void> {
      await db.fork().nativeDelete(IdpLoginFailure, { realm, kind: key.kind, subject: key.subject });
    },

    async findForUser(userId: string): Promise<IdpLoginFailure | null> {
      return db.fork().findOne(IdpLoginFailure, { realm, kind: 'account', subject: userId });
    },

    /** The user's lockout, and the user's failures from any address (so no address throttle still refuses them). */
    async clearForUser(userId: string): Promise<void> {
      await db.fork().nativeDelete(IdpLoginFailure, { realm, kind: { $in: ['account', 'address-account'] }, userId });
    },

    /** Every lockout and count of the realm, accounts and addresses alike. */
    async clearAll(): Promise<void> {
      await db.fork().nativeDelete(IdpLoginFailure, { realm });
    },
  };
}

export type LoginFailureStore = ReturnType<typeof createLoginFailureStore>;
