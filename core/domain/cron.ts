/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week, as Vixie cron reads them) evaluated in an
 * IANA time zone through Intl, so no time-zone database of our own. Clock changes: a time that occurs twice (the hour
 * repeated when summer time ends) runs once, at its first occurrence; a time the clock skips (the hour lost when summer
 * time starts) runs once, at the instant the clock jumps.
 */

export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday (7 is read as 0). */
  daysOfWeek: ReadonlySet<number>;
  /** Both day fields restricted: a day matches either one (Vixie cron). */
  dayOr: boolean;
}

/** A field that does not parse: `field` names it, `message` says why. */
export class CronError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronError';
  }
}

const monthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const dayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** Where the first name counts from (months: 1). */
  nameBase?: number;
}

const fieldSpecs: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: monthNames, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: dayNames, nameBase: 0 },
];

function parseValue(text: string, spec: FieldSpec): number {
  const lower = text.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) throw new CronError(`${spec.name}: ${JSON.stringify(text)} is not a number${spec.names ? ' or a name' : ''}`);
  const value = Number(text);
  if (value < spec.min || value > spec.max) throw new CronError(`${spec.name}: ${value} is outside ${spec.min}-${spec.max}`);
  return value;
}

function parseField(text: string, spec: FieldSpec): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === undefined || range === '') throw new CronError(`${spec.name}: ${JSON.stringify(part)} is not a value, range or step`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) < 1) throw new CronError(`${spec.name}: step ${JSON.stringify(stepText)} must be a whole number from 1`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      from = spec.min;
      to = spec.max;
    } else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined || !a || !b) throw new CronError(`${spec.name}: ${JSON.stringify(range)} is not a range`);
      from = parseValue(a, spec);
      to = parseValue(b, spec);
      if (from > to) throw new CronError(`${spec.name}: range ${range} runs backwards`);
    } else {
      from = parseValue(range, spec);
      // `5/15` is `5-max/15`, as Vixie cron reads it.
      to = stepText === undefined ? from : spec.max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Parses a five-field expression; throws CronError naming the field. */
export function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || fields[0] === '') {
    throw new CronError(`a cron expression has 5 fields (minute hour day-of-month month day-of-week), got ${fields[0] === '' ? 0 : fields.length}`);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeekRaw] = fields.map((field, i) => parseField(field, fieldSpecs[i]!)) as [
    Set<number>, Set<number>, Set<number>, Set<number>, Set<number>,
  ];
  const daysOfWeek = new Set([...daysOfWeekRaw].map((d) => d % 7));
  const schedule = { minutes, hours, daysOfMonth, months, daysOfWeek, dayOr: !fields[2]!.startsWith('*') && !fields[4]!.startsWith('*') };
  // `0 0 30 2 *` parses but never runs: refused, rather than a schedule that silently never fires.
  if (![...months].some((month) => [...daysOfMonth].some((day) => day <= daysInMonth(2000, month))) && !schedule.dayOr) {
    throw new CronError('day of month: no month of the expression has such a day');
  }
  return schedule;
}

// ---------------------------------------------------------------------------------------------------------------------
// Time zones

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The canonical name of an IANA time zone (`utc` -> `UTC`), or null when Intl does not know it. */
export function canonicalTimeZone(timeZone: string): string | null {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(timeZone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The wall-clock time at `instant` in the zone, as if it were UTC (milliseconds, seconds dropped). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
}

/** The zone's offset from UTC at `instant`, in milliseconds (whole minutes). */
const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone) - Math.floor(instant / 60_000) * 60_000;

/**
 * The instant of a wall-clock time (given as if UTC) in the zone: the earlier one when it occurs twice, the instant the
 * clock jumps when it does not occur at all.
 */
export function instantOfWallClock(local: number, timeZone: string): number {
  const before = offsetAt(local - 86_400_000, timeZone);
  const after = offsetAt(local + 86_400_000, timeZone);
  const matches = [local - before, local - after].filter((candidate) => wallClock(candidate, timeZone) === local);
  if (matches.length > 0) return Math.min(...matches);
  // Skipped by the clock: the first instant whose wall-clock time is past it (binary search over whole minutes).
  let low = Math.min(local - before, local - after);
  let high = Math.max(local - before, local - after);
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 120_000) * 60_000;
    if (wallClock(middle, timeZone) > local) high = middle;
    else low = middle;
  }
  return high;
}

// ---------------------------------------------------------------------------------------------------------------------
// The next run

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function dayMatches(schedule: CronSchedule, day: Date): boolean {
  if (!schedule.months.has(day.getUTCMonth() + 1)) return false;
  const byMonthDay = schedule.daysOfMonth.has(day.getUTCDate());
  const byWeekDay = schedule.daysOfWeek.has(day.getUTCDay());
  return schedule.dayOr ? byMonthDay || byWeekDay : byMonthDay && byWeekDay;
}

/** How far ahead a next run is looked for: past every leap-day schedule (`0 0 29 2 1` may wait 28 years). */
const searchDays = 366 * 30;

/** The first instant after `after` (strictly) at which the schedule runs in the zone; null when none within 30 years. */
export function nextRun(schedule: CronSchedule, timeZone: string, after: Date): Date | null {
  const afterMs = after.getTime();
  const startLocal = wallClock(afterMs, timeZone);
  // Wall-clock times before now cannot be next, unless a clock change is near (it moves wall-clock time by a few hours
  // at most): then earlier candidates of the first day are looked at too.
  const changeNear = offsetAt(afterMs - 86_400_000, timeZone) !== offsetAt(afterMs + 86_400_000, timeZone);
  const earliest = startLocal - (changeNear ? 3 * 3_600_000 : 0);
  const firstDay = Math.floor(startLocal / 86_400_000) * 86_400_000;
  const hours = [...schedule.hours].sort((x, y) => x - y);
  const minutes = [...schedule.minutes].sort((x, y) => x - y);
  for (let d = -1; d <= searchDays; d++) {
    const dayStart = firstDay + d * 86_400_000;
    if (!dayMatches(schedule, new Date(dayStart))) continue;
    for (const hour of hours) {
      if (dayStart + (hour + 1) * 3_600_000 <= earliest) continue;
      for (const minute of minutes) {
        const local = dayStart + hour * 3_600_000 + minute * 60_000;
        if (local < earliest) continue;
        const instant = instantOfWallClock(local, timeZone);
        if (instant > afterMs) return new Date(instant);
      }
    }
  }
  return null;
}
