/**
 * Keycloak's brute-force arithmetic (DefaultBruteForceProtector): how a failure changes the count and how long it
 * locks; and the per-address throttle, which refuses only the names that failed from the throttled address.
 */
import type { BruteForceSettings } from './config.ts';

/**
 * What failures are counted under: an account (Keycloak's login failures), a client address over every name, and one
 * name from one address. The last one never locks by itself: it says which names an address throttle applies to.
 */
export type LoginKeyKind = 'account' | 'address' | 'address-account';

/** What a refused attempt was refused for: the account's lock, or its address's throttle. */
export type LockSubject = 'account' | 'address';

export interface FailureState {
  numFailures: number;
  lastFailure: Date;
  notBefore: Date | null;
  lockedPermanently: boolean;
}

export interface CountedFailure extends FailureState {
  /** The wait this failure imposes; 0 when it locks nothing. */
  waitSeconds: number;
}

/** The failure factor for a kind of key; 0 means no limit (a name from an address is only counted). */
export const failureFactorOf = (settings: BruteForceSettings, kind: LoginKeyKind) =>
  kind === 'account' ? settings.failureFactor : kind === 'address' ? settings.addressFailureFactor : 0;

/** Seconds until the subject may try again: 0 when it may now, null when only an admin can lift the lock. */
export function remainingLockSeconds(state: FailureState | null, now: Date): number | null {
  if (!state) return 0;
  if (state.lockedPermanently) return null;
  if (!state.notBefore || state.notBefore.getTime() <= now.getTime()) return 0;
  return Math.max(1, Math.ceil((state.notBefore.getTime() - now.getTime()) / 1000));
}

/** Whether the count of `state` still runs at `now`: it restarts once `maxDeltaTimeSeconds` passed without a failure. */
export function failedWithinResetTime(settings: BruteForceSettings, state: FailureState | null, now: Date): boolean {
  if (!state || state.numFailures <= 0) return false;
  return now.getTime() - state.lastFailure.getTime() <= settings.maxDeltaTimeSeconds * 1000;
}

/**
 * One more failure: the count restarts when the last one is older than `maxDeltaTimeSeconds`; every `failureFactor`
 * failures add `waitIncrementSeconds` to the wait, up to `maxFailureWaitSeconds`; two failures closer than
 * `quickLoginCheckMilliSeconds` wait at least `minimumQuickLoginWaitSeconds`. A name from an address only counts.
 */
export function countFailure(
  settings: BruteForceSettings,
  kind: LoginKeyKind,
  previous: FailureState | null,
  now: Date,
): CountedFailure {
  const last = previous && previous.numFailures > 0 ? previous : null;
  const sinceLast = last ? now.getTime() - last.lastFailure.getTime() : null;
  const lapsed = !failedWithinResetTime(settings, last, now);
  const numFailures = (lapsed ? 0 : last!.numFailures) + 1;
  const factor = failureFactorOf(settings, kind);
  let waitSeconds = factor > 0 ? settings.waitIncrementSeconds * Math.floor(numFailures / factor) : 0;
  if (kind !== 'address-account' && waitSeconds === 0 && sinceLast !== null && sinceLast < settings.quickLoginCheckMilliSeconds) {
    waitSeconds = settings.minimumQuickLoginWaitSeconds;
  }
  waitSeconds = Math.min(settings.maxFailureWaitSeconds, waitSeconds);
  const lockedPermanently = kind === 'account' && settings.permanentLockout && factor > 0 && numFailures >= factor;
  return {
    numFailures,
    lastFailure: now,
    notBefore: waitSeconds > 0 ? new Date(now.getTime() + waitSeconds * 1000) : null,
    lockedPermanently,
    waitSeconds,
  };
}

export interface AttemptStates {
  account: FailureState | null;
  /** Null also when the attempt has no address, or the address limit is off. */
  address: FailureState | null;
  /** This name's failures from this address. */
  addressAccount: FailureState | null;
}

export type Refusal = { subject: LockSubject; retryAfterSeconds: number | null };

/**
 * Whether an attempt is refused before its password is checked. A locked account is refused from everywhere (as in
 * Keycloak). A throttled address (past `addressFailureFactor`) is refused only for a name that itself failed from
 * that address within the reset time: whoever else shares the address (one NAT, the machine's loopback, where the
 * local agent's scripts run too) still has their password checked, so a guesser there throttles its own names and
 * cannot lock another user out.
 */
export function refusalOf(settings: BruteForceSettings, states: AttemptStates, now: Date): Refusal | null {
  const account = remainingLockSeconds(states.account, now);
  if (account !== 0) return { subject: 'account', retryAfterSeconds: account };
  const address = remainingLockSeconds(states.address, now);
  if (address !== 0 && failedWithinResetTime(settings, states.addressAccount, now)) {
    return { subject: 'address', retryAfterSeconds: address };
  }
  return null;
}
