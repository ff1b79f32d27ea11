/** Times and durations as metric queries take them: unix seconds, RFC 3339, `now`, `-1h`; durations `15s`, `1m30s`, seconds. */
import { badRequest } from '../../kernel/errors.ts';

const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };
const durationPattern = /^(?:\d+(?:ms|s|m|h|d|w|y))+$/;

/** A duration in seconds: `1m30s` (Prometheus' syntax) or a plain number of seconds. */
export function parseDuration(raw: string, what: string): number {
  const text = raw.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    if (seconds > 0) return seconds;
  } else if (durationPattern.test(text)) {
    let seconds = 0;
    for (const [, amount, unit] of text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) seconds += Number(amount) * units[unit!]!;
    if (seconds > 0) return seconds;
  }
  throw badRequest(`${what} must be a positive duration such as 15s, 1m or 1h30m, or a number of seconds; got ${JSON.stringify(raw)}`);
}

/** 9999-12-31T23:59:59Z: later times hold no points, and PostgreSQL refuses timestamps far past it ("out of range"). */
export const latestUnixSeconds = 253_402_300_799;

/**
 * A time a query may hand to the database: inside [1970, 9999]. Clients send extreme bounds on purpose (Prometheus'
 * own min and max time), and range arithmetic (`start - 100000y`) goes further; the store clamps what it asks
 * PostgreSQL for, so such a query answers with what is stored in between, where the raw value failed deep in SQL.
 */
export const clampUnixSeconds = (seconds: number) => Math.min(Math.max(seconds, 0), latestUnixSeconds);

/** A point in time in unix seconds: unix seconds, RFC 3339, `now`, or `-<duration>` before `nowSeconds`. */
export function parseTime(raw: string, what: string, nowSeconds: number): number {
  const text = raw.trim();
  if (text === 'now') return nowSeconds;
  if (text.startsWith('-') && durationPattern.test(text.slice(1))) return nowSeconds - parseDuration(text.slice(1), what);
  // Finite, however far: the store clamps; only a number too long to be one (Infinity) is refused below.
  if (/^\d+(?:\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  const rfc3339 = /^(-?)(\d{4,})-\d{2}-\d{2}T/.exec(text);
  if (rfc3339) {
    const millis = Date.parse(text);
    if (Number.isFinite(millis)) return millis / 1000;
    // Past what Date reads (Prometheus' own bounds are years -292273086 and 292277025): the ends of what is stored.
    if (rfc3339[2]!.length > 4) return rfc3339[1] ? 0 : latestUnixSeconds;
  }
  throw badRequest(`${what} must be unix seconds, an RFC 3339 time, now, or -<duration> such as -1h; got ${JSON.stringify(raw)}`);
}
