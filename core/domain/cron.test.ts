import { describe, expect, test } from 'bun:test';
import { canonicalTimeZone, CronError, instantOfWallClock, nextRun, parseCron } from './cron.ts';

const next = (cron: string, zone: string, after: string) => nextRun(parseCron(cron), zone, new Date(after))?.toISOString() ?? null;

/** Every run after `from`, `count` of them, each computed from the one before (as the sweep does). */
function runs(cron: string, zone: string, from: string, count: number): string[] {
  const schedule = parseCron(cron);
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < count; i++) {
    at = nextRun(schedule, zone, at)!;
    out.push(at.toISOString());
  }
  return out;
}

describe('parseCron', () => {
  test('reads values, ranges, steps, lists and names', () => {
    const schedule = parseCron('*/15 9-17 1,15 jan-mar MON-FRI');
    expect([...schedule.minutes]).toEqual([0, 15, 30, 45]);
    expect([...schedule.hours]).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...schedule.daysOfMonth]).toEqual([1, 15]);
    expect([...schedule.months]).toEqual([1, 2, 3]);
    expect([...schedule.daysOfWeek]).toEqual([1, 2, 3, 4, 5]);
    expect(schedule.dayOr).toBe(true);
    expect([...parseCron('5/20 * * * 7').minutes]).toEqual([5, 25, 45]);
    expect([...parseCron('0 0 * * 7').daysOfWeek]).toEqual([0]);
    expect(parseCron('0 0 */2 * 1').dayOr).toBe(false);
  });

  test.each([
    ['', /5 fields/],
    ['* * * *', /5 fields .*, got 4$/],
    ['* * * * * *', /5 fields .*, got 6$/],
    ['60 * * * *', /minute: 60 is outside 0-59/],
    ['* 24 * * *', /hour: 24 is outside 0-23/],
    ['* * 0 * *', /day of month: 0 is outside 1-31/],
    ['* * * 13 *', /month: 13 is outside 1-12/],
    ['* * * * 8', /day of week: 8 is outside 0-7/],
    ['*/0 * * * *', /minute: step "0"/],
    ['5-1 * * * *', /minute: range 5-1 runs backwards/],
    ['a * * * *', /minute: "a" is not a number/],
    ['* * * foo *', /month: "foo" is not a number or a name/],
    ['1,,2 * * * *', /minute/],
    ['0 0 30 2 *', /no month of the expression has such a day/],
  ])('refuses %p', (cron, message) => {
    expect(() => parseCron(cron)).toThrow(CronError);
    expect(() => parseCron(cron)).toThrow(message);
  });
});

describe('canonicalTimeZone', () => {
  test('knows IANA zones and only them', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimeZone('Mars/Olympus')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
    expect(canonicalTimeZone('Europe/Berlin; drop table')).toBeNull();
  });
});

describe('nextRun', () => {
  test('is strictly after the given instant, seconds included', () => {
    expect(next('* * * * *', 'UTC', '2026-03-10T12:00:00Z')).toBe('2026-03-10T12:01:00.000Z');
    expect(next('* * * * *', 'UTC', '2026-03-10T12:00:59.999Z')).toBe('2026-03-10T12:01:00.000Z');
    expect(next('30 8 * * *', 'UTC', '2026-03-10T08:30:00Z')).toBe('2026-03-11T08:30:00.000Z');
    expect(next('0 0 1 1 *', 'UTC', '2026-03-10T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('0 0 29 2 *', 'UTC', '2026-03-10T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  });

  test('runs in the zone: 09:00 in Berlin is 08:00 UTC in winter and 07:00 UTC in summer', () => {
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-01-15T12:00:00Z')).toBe('2026-01-16T08:00:00.000Z');
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-07-15T12:00:00Z')).toBe('2026-07-16T07:00:00.000Z');
    expect(next('0 9 * * *', 'America/New_York', '2026-07-15T12:00:00Z')).toBe('2026-07-15T13:00:00.000Z');
    // Weekdays are the zone's: Monday 00:30 in Tokyo is Sunday 15:30 UTC.
    expect(next('30 0 * * mon', 'Asia/Tokyo', '2026-11-20T00:00:00Z')).toBe('2026-11-22T15:30:00.000Z');
  });

  test('a day matches either day field when both are restricted, both when one is *', () => {
    // 2026-11-26 is a Thursday: the 1st of December, or any Monday (the 30th of November comes first).
    expect(next('0 12 1 * mon', 'UTC', '2026-11-26T00:00:00Z')).toBe('2026-11-30T12:00:00.000Z');
    // Every second day of the month that is a Monday: the quirk of "*/2" (starts with *) means AND.
    expect(next('0 12 */2 * mon', 'UTC', '2026-11-26T00:00:00Z')).toBe('2026-12-07T12:00:00.000Z');
  });

  test('Berlin spring forward (2026-03-29, 02:00 -> 03:00): a skipped time runs once, when the clock jumps', () => {
    // 02:30 does not exist that night: it runs at 03:00 CEST (01:00 UTC), then at 02:30 CEST on the next day.
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
    // Every quarter hour across the jump: 01:45 CET, then the skipped hour collapses into one run at 03:00 CEST.
    expect(runs('*/15 * * * *', 'Europe/Berlin', '2026-03-29T00:30:00Z', 4)).toEqual([
      '2026-03-29T00:45:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:15:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ]);
    expect(instantOfWallClock(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin')).toBe(Date.UTC(2026, 2, 29, 1, 0));
  });

  test('Berlin fall back (2026-10-25, 03:00 -> 02:00): a repeated time runs once, at its first occurrence', () => {
    // 02:30 happens twice (CEST 00:30 UTC, CET 01:30 UTC): only the first one runs.
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // Hourly through the repeated hour: 02:00 CEST (00:00 UTC), then 03:00 CET (02:00 UTC): 02:00 CET does not run again.
    expect(runs('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 3)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
      '2026-10-25T03:00:00.000Z',
    ]);
  });

  test('the next run after a long outage is the next one to come, not the missed ones', () => {
    // Due at 09:00 but computed at 12:34 (the service was down): the next run is tomorrow 09:00.
    expect(next('0 9 * * *', 'UTC', '2026-05-05T12:34:00Z')).toBe('2026-05-06T09:00:00.000Z');
  });

  test('is quick for a schedule due every minute', () => {
    const schedule = parseCron('* * * * *');
    const started = performance.now();
    for (let i = 0; i < 200; i++) nextRun(schedule, 'Europe/Berlin', new Date(Date.UTC(2026, 5, 1, 10, i)));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
