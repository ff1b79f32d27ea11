import { describe, expect, test } from 'bun:test';
import { createFailedLookupLimiter } from './failed-lookup-limiter.ts';

describe('failed lookup limiter', () => {
  test('refuses after the limit until the window ends, then counts afresh', () => {
    let now = 1_000_000;
    const limiter = createFailedLookupLimiter({ limit: 3, windowMillis: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
      limiter.recordFailure('10.0.0.1');
    }
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(60);
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBe(0);
    now += 59_001;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(1);
    now += 1_000;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
    limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  test('memory stays bounded: the oldest addresses are forgotten first', () => {
    const limiter = createFailedLookupLimiter({ limit: 1, maxAddresses: 100, now: () => 0 });
    for (let i = 0; i < 1000; i++) limiter.recordFailure(`10.0.${Math.floor(i / 256)}.${i % 256}`);
    expect(limiter.retryAfterSeconds('10.0.3.231')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('10.0.0.0')).toBe(0);
  });

  test('an IPv6 /64 counts as one client; IPv4-mapped addresses as IPv4', () => {
    // The key itself is tested in core/http/client-address.test.ts; here, that the limiter counts by it.
    const limiter = createFailedLookupLimiter({ limit: 2 });
    limiter.recordFailure('2001:db8:1:2::a');
    limiter.recordFailure('2001:db8:1:2::b');
    limiter.recordFailure('::ffff:192.0.2.7');
    expect(limiter.retryAfterSeconds('192.0.2.7')).toBe(0);
    limiter.recordFailure('192.0.2.7');
    expect(limiter.retryAfterSeconds('::ffff:192.0.2.7')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('2001:db8:1:2::c')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('2001:db8:1:3::a')).toBe(0);
  });
});
