import { describe, expect, test } from 'bun:test';
import { nextPeriodStart, secondsUntilNextPeriod, usagePeriod } from './usage-period.ts';

describe('usage period (UTC calendar month)', () => {
  test('names the UTC month, not the local one', () => {
    expect(usagePeriod(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(usagePeriod(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    // 00:30 on the 1st in UTC+2 is still the previous month in UTC.
    expect(usagePeriod(new Date('2026-12-01T00:30:00+02:00'))).toBe('2026-11');
    expect(usagePeriod(new Date('0999-01-05T00:00:00Z'))).toBe('0999-01');
  });

  test('the next period starts on the first of the next month, across a year end and in February', () => {
    expect(nextPeriodStart(new Date('2026-11-15T12:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2028-02-29T08:00:00Z')).toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-12-01T00:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  test('seconds until the reset round up and are at least 1', () => {
    expect(secondsUntilNextPeriod(new Date('2026-11-30T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextPeriod(new Date('2026-11-30T23:59:59.001Z'))).toBe(1);
    expect(secondsUntilNextPeriod(new Date('2026-11-01T00:00:00Z'))).toBe(30 * 86_400);
  });
});
