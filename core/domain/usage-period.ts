/** The usage period: the UTC calendar month, named 'YYYY-MM'; budgets counted in it reset on the first of the next, 00:00 UTC. */

/** '2026-11' for any instant of November 2026 in UTC, whatever the server's time zone. */
export function usagePeriod(at: Date): string {
  return `${String(at.getUTCFullYear()).padStart(4, '0')}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The first instant of the month after `at`'s (UTC): when a monthly budget counts from zero again. */
export function nextPeriodStart(at: Date): Date {
  // Date.UTC carries month 12 into January of the next year.
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Whole seconds from `at` until the next period starts, at least 1 (a Retry-After value). */
export function secondsUntilNextPeriod(at: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(at).getTime() - at.getTime()) / 1000));
}
