import { describe, expect, test } from 'bun:test';
import { browserTimeZone, supportedTimeZones, timeZoneOptions } from './time-zones';

describe('time zones', () => {
  test('UTC first, extras included once, sorted', () => {
    expect(timeZoneOptions(['Europe/Berlin', 'America/New_York', 'UTC'], 'Asia/Tokyo', 'Europe/Berlin', '')).toEqual([
      'UTC',
      'America/New_York',
      'Asia/Tokyo',
      'Europe/Berlin',
    ]);
  });
  test('the runtime answers a zone and a list', () => {
    expect(browserTimeZone().length).toBeGreaterThan(0);
    expect(Array.isArray(supportedTimeZones())).toBe(true);
  });
});
