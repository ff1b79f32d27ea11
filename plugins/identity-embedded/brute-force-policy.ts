/** Keycloak's brute-force arithmetic (DefaultBruteForceProtector): how a failure changes the count and how long it locks. */
import type { BruteForceSettings } from './config.ts';

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

/** The failure factor for a kind of subject; 0 means no limit. */
export const failureFactorOf = (settings: BruteForceSettings, kind: LockSubject) =>
  kind === 'account' ? settings.failureFactor : settings.addressFailureFactor;

/** Seconds until the subject may try again: 0 when it may now, null when only an admin can lift the lock. */
export function remainingLockSeconds(state: FailureState | null, now: Date): number | null {
  if (!state) return 0;
  if (state.lockedPermanently) return null;
  if (!state.notBefore || state.notBefore.getTime() <= now.getTime()) return 0;
  return Math.max(1, Math.ceil((state.notBefore.getTime() - now.getTime()) / 1000));
}

/**
 * One more failure: the count restarts when the last one is older than `maxDeltaTimeSeconds`; every `failureFactor`
 * failures add `waitIncrementSeconds` to the wait, up to `maxFailureWaitSeconds`; two failures closer than
 * `quickLoginCheckMilliSeconds` wait at least `minimumQuickLoginWaitSeconds`.
 */
export function countFailure(
  settings: BruteForceSettings,
  kind: LockSubject,
  previous: FailureState | null,
  now: Date,
): CountedFailure {
  const last = previous && previous.numFailures > 0 ? previous : null;
  const sinceLast = last ? now.getTime() - last.lastFailure.getTime() : null;
  const lapsed = sinceLast === null || sinceLast > settings.maxDeltaTimeSeconds * 1000;
  const numFailures = (lapsed ? 0 : last!.numFailures) + 1;
  const factor = failureFactorOf(settings, kind);
  let waitSeconds = factor > 0 ? settings.waitIncrementSeconds * Math.floor(numFailures / factor) : 0;
  if (waitSeconds === 0 && sinceLast !== null && sinceLast < settings.quickLoginCheckMilliSeconds) {
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
