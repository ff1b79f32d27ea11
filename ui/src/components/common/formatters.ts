/**
 * Formatting of figures for people.
 * Exports: formatMs(ms), formatRate(perSecond), formatPercent(fraction), formatFigure(value), formatCount(n), formatDateTime(iso), formatClockTime(unixSeconds),
 * formatRelativeTime(iso), formatDuration(ms), durationBetween(startIso, endIso), formatChange(relative), formatBytes(n).
 * Every one answers "–" for null, undefined or NaN.
 */

const DASH = '–';
const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || Number.isNaN(value);

/**
 * One Intl formatter per kind, made on first use and kept: `toLocaleString` with options builds a new one per call
 * (a dashboard's 200-run picker and 8 charts' axes spent ~40 ms of a cold page making them).
 */
function kept<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const grouped = kept(() => new Intl.NumberFormat('en'));
const byDigits = [0, 1, 2, 3].map((digits) => kept(() => new Intl.NumberFormat('en', { maximumFractionDigits: digits })));
const dateTime = kept(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
const clockTime = kept(() => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' }));

/** Milliseconds: "0.84 ms", "12.3 ms", "1,204 ms", "12.5 s" from 10 s on. */
export function formatMs(ms: number | null | undefined): string {
  if (missing(ms)) return DASH;
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${grouped().format(Math.round(ms))} ms`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Requests per second: "1,204/s", "12.3/s". */
export function formatRate(perSecond: number | null | undefined): string {
  if (missing(perSecond)) return DASH;
  if (perSecond >= 100) return `${grouped().format(Math.round(perSecond))}/s`;
  return `${perSecond.toFixed(1)}/s`;
}

/** A fraction as a percentage: 0.0123 → "1.23 %". */
export function formatPercent(fraction: number | null | undefined): string {
  if (missing(fraction)) return DASH;
  const percent = fraction * 100;
  if (percent === 0) return '0 %';
  if (percent < 0.01) return '< 0.01 %';
  return `${percent < 10 ? percent.toFixed(2) : percent.toFixed(1)} %`;
}

/** A chart's figure: "1,204", "12.3", "4.56", "0.042" (fewer decimals the larger it is). */
export function formatFigure(value: number | null | undefined): string {
  if (missing(value)) return DASH;
  const abs = Math.abs(value);
  return byDigits[abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3]!().format(value);
}

export function formatCount(n: number | null | undefined): string {
  return missing(n) ? DASH : grouped().format(Math.round(n));
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return DASH;
  return dateTime().format(date);
}

/** Unix seconds as the time of day in the reader's locale, as `toLocaleTimeString()` shows it: "14:05:09", "2:05:09 PM". */
export function formatClockTime(unixSeconds: number | null | undefined): string {
  if (missing(unixSeconds)) return DASH;
  return clockTime().format(unixSeconds * 1000);
}

/** "5 min ago", "in 2 h", "just now". */
export function formatRelativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return DASH;
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return DASH;
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 10) return 'just now';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** A duration: "850 ms", "42 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (missing(ms) || ms < 0) return DASH;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
}

/** The time between two timestamps (to now when the end is missing); null when the start is missing. */
export function durationBetween(startIso: string | null | undefined, endIso?: string | null, now: number = Date.now()): number | null {
  if (!startIso) return null;
  const start = new Date(startIso).getTime();
  const end = endIso ? new Date(endIso).getTime() : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** A relative change: 0.12 → "+12.0 %", -0.034 → "−3.4 %". */
export function formatChange(relative: number | null | undefined): string {
  if (missing(relative) || !Number.isFinite(relative)) return DASH;
  const percent = relative * 100;
  const sign = percent > 0 ? '+' : percent < 0 ? '−' : '±';
  return `${sign}${Math.abs(percent).toFixed(1)} %`;
}

export function formatBytes(n: number | null | undefined): string {
  if (missing(n)) return DASH;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
