/**
 * Keycloak's brute-force arithmetic: growing wait per failure factor, the cap, the reset time, quick logins, permanent
 * lockout; and which attempts a throttled address refuses (only the names that failed from it).
 */
import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { countFailure, type FailureState, type LoginKeyKind, refusalOf, remainingLockSeconds } from './brute-force-policy.ts';
import { type BruteForceSettings, BruteForceSchema } from './config.ts';

const defaults = Value.Default(BruteForceSchema, {}) as BruteForceSettings;
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 22) + seconds * 1000);

/** `count` failures one second apart, starting at t=0; the state after the last. */
function fail(settings: BruteForceSettings, count: number, kind: LoginKeyKind = 'account') {
  let state: FailureState | null = null;
  let last = null as ReturnType<typeof countFailure> | null;
  for (let index = 0; index < count; index++) {
    last = countFailure(settings, kind, state, at(index));
    state = last;
  }
  return last!;
}

describe('countFailure', () => {
  test('defaults: 10 failures lock the account for a minute, the address only at 30', () => {
    expect(defaults).toMatchObject({ failureFactor: 10, waitIncrementSeconds: 60, maxFailureWaitSeconds: 900, addressFailureFactor: 30 });
    expect(fail(defaults, 9).waitSeconds).toBe(0);
    const tenth = fail(defaults, 10);
    expect(tenth).toMatchObject({ numFailures: 10, waitSeconds: 60, lockedPermanently: false });
    expect(tenth.notBefore).toEqual(at(9 + 60));
    expect(fail(defaults, 29, 'address').waitSeconds).toBe(0);
    expect(fail(defaults, 30, 'address').waitSeconds).toBe(60);
  });

  test('the wait grows by one increment per failure factor, up to the maximum', () => {
    expect(fail(defaults, 11).waitSeconds).toBe(60);
    expect(fail(defaults, 20).waitSeconds).toBe(120);
    expect(fail(defaults, 50).waitSeconds).toBe(300);
    expect(fail(defaults, 1000).waitSeconds).toBe(900);
  });

  test('the count starts over after the failure reset time without a failure', () => {
    const ninth = fail(defaults, 9);
    expect(countFailure(defaults, 'account', ninth, at(8 + defaults.maxDeltaTimeSeconds)).numFailures).toBe(10);
    const afterReset = countFailure(defaults, 'account', ninth, at(9 + defaults.maxDeltaTimeSeconds));
    expect(afterReset).toMatchObject({ numFailures: 1, waitSeconds: 0, notBefore: null });
  });

  test('quick login check: two failures closer than the check wait the minimum (off by default)', () => {
    const quick = { ...defaults, quickLoginCheckMilliSeconds: 1000, minimumQuickLoginWaitSeconds: 30 };
    const first = countFailure(quick, 'account', null, at(0));
    expect(first.waitSeconds).toBe(0);
    expect(countFailure(quick, 'account', first, new Date(at(0).getTime() + 500)).waitSeconds).toBe(30);
    expect(countFailure(quick, 'account', first, new Date(at(0).getTime() + 1500)).waitSeconds).toBe(0);
    expect(countFailure(defaults, 'account', first, new Date(at(0).getTime() + 1)).waitSeconds).toBe(0);
  });

  test('permanent lockout: from the failure factor on, for accounts only', () => {
    const permanent = { ...defaults, permanentLockout: true };
    expect(fail(permanent, 9).lockedPermanently).toBe(false);
    expect(fail(permanent, 10).lockedPermanently).toBe(true);
    expect(fail(permanent, 40, 'address').lockedPermanently).toBe(false);
  });

  test('an address factor of 0 turns the address limit off', () => {
    expect(fail({ ...defaults, addressFailureFactor: 0 }, 500, 'address').waitSeconds).toBe(0);
  });

  test('a name from an address only counts: no wait at any count, no quick-login wait, never permanent', () => {
    const strict = { ...defaults, permanentLockout: true, quickLoginCheckMilliSeconds: 5000, addressFailureFactor: 1, failureFactor: 1 };
    const many = fail(strict, 100, 'address-account');
    expect(many).toMatchObject({ numFailures: 100, waitSeconds: 0, notBefore: null, lockedPermanently: false });
    expect(countFailure(defaults, 'address-account', many, at(99 + defaults.maxDeltaTimeSeconds + 1)).numFailures).toBe(1);
  });
});

describe('refusalOf', () => {
  const throttled = fail(defaults, 30, 'address'); // waits 60 s from t=29
  const nameFailed = fail(defaults, 1, 'address-account'); // one failure at t=0
  const lockedAccount = fail(defaults, 10);

  test('a locked account is refused wherever it comes from, the address throttle or not', () => {
    expect(refusalOf(defaults, { account: lockedAccount, address: null, addressAccount: null }, at(10))).toEqual({ subject: 'account', retryAfterSeconds: 59 });
    expect(refusalOf(defaults, { account: lockedAccount, address: throttled, addressAccount: nameFailed }, at(10))).toMatchObject({ subject: 'account' });
    const permanent = { ...lockedAccount, lockedPermanently: true };
    expect(refusalOf(defaults, { account: permanent, address: null, addressAccount: null }, at(10_000))).toEqual({ subject: 'account', retryAfterSeconds: null });
  });

  test('a throttled address refuses a name that failed from it, with the throttle\'s Retry-After', () => {
    expect(refusalOf(defaults, { account: null, address: throttled, addressAccount: nameFailed }, at(30))).toEqual({ subject: 'address', retryAfterSeconds: 59 });
  });

  test('a throttled address still lets in a name that has not failed from it (another user), or whose failures lapsed', () => {
    expect(refusalOf(defaults, { account: null, address: throttled, addressAccount: null }, at(30))).toBeNull();
    // Its failures from the address are older than the reset time (the address's own kept going).
    const lapsed = { ...nameFailed, lastFailure: at(30 - defaults.maxDeltaTimeSeconds - 1) };
    expect(refusalOf(defaults, { account: null, address: throttled, addressAccount: lapsed }, at(30))).toBeNull();
    // The other user's own account failures (below its factor) from elsewhere change nothing.
    expect(refusalOf(defaults, { account: fail(defaults, 9), address: throttled, addressAccount: null }, at(30))).toBeNull();
  });

  test('an address below its factor, or whose wait is over, refuses nobody', () => {
    expect(refusalOf(defaults, { account: null, address: fail(defaults, 29, 'address'), addressAccount: nameFailed }, at(30))).toBeNull();
    expect(refusalOf(defaults, { account: null, address: throttled, addressAccount: nameFailed }, at(29 + 60))).toBeNull();
  });
});

describe('remainingLockSeconds', () => {
  test('seconds left rounded up, 0 when free, null when only an admin can lift it', () => {
    const tenth = fail(defaults, 10);
    expect(remainingLockSeconds(null, at(0))).toBe(0);
    expect(remainingLockSeconds(tenth, at(9))).toBe(60);
    expect(remainingLockSeconds(tenth, new Date(at(68).getTime() + 1))).toBe(1);
    expect(remainingLockSeconds(tenth, at(69))).toBe(0);
    expect(remainingLockSeconds({ ...tenth, lockedPermanently: true }, at(1000))).toBeNull();
  });
});
