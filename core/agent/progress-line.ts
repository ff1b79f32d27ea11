/** The text of the agent's progress line in a run's live log: elapsed time, requests so far, their rate, errors, p95. */

/** Marks lines the agent wrote itself, as its other notes in a run's log. */
export const progressPrefix = '[loadplane] progress: ';

export interface ProgressFigures {
  /** Since the tool started. */
  elapsedMs: number;
  /** Since the start. */
  requests: number;
  errors: number;
  /** The requests, time and p95 of the window since the previous progress line (p95 null when it had no requests). */
  recent: { requests: number; ms: number; p95Ms: number | null };
}

// en-US whatever the agent's locale: one spelling of numbers in every log, which people and scripts can read.
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const tenths = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function errorShare(errors: number, requests: number): string {
  const percent = (errors / requests) * 100;
  // 3 errors in 100,000 requests are not "0.0 %": a run with errors says so.
  return errors > 0 && percent < 0.05 ? '<0.1 %' : `${tenths.format(percent)} %`;
}

export function progressLine(figures: ProgressFigures): string {
  const elapsed = `${count.format(Math.round(figures.elapsedMs / 1000))} s`;
  // A tool still warming up (a JVM compiling, a script before its first sample) is alive all the same.
  if (figures.requests === 0) return `${progressPrefix}${elapsed}, no requests yet`;
  const { recent } = figures;
  const rate = recent.ms > 0 ? (recent.requests * 1000) / recent.ms : 0;
  const p95 = recent.p95Ms === null ? '' : `, p95 ${tenths.format(recent.p95Ms)} ms`;
  const requests = `${count.format(figures.requests)} request${figures.requests === 1 ? '' : 's'}`;
  return `${progressPrefix}${elapsed}, ${requests} (${tenths.format(rate)}/s), errors ${errorShare(figures.errors, figures.requests)}${p95}`;
}
