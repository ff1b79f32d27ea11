/** The step of a run's time series (GET /tasks/{id}/timeseries): read from `?step=`, else chosen from the run's length; always bounded. */
import { badRequest } from '../../kernel/errors.ts';

/** A chart of the whole run reads well with about this many points: the default step aims at it. */
export const targetPoints = 500;
/** Never more buckets than this in one answer, whatever step was asked: a step too small for the run is raised. */
export const maxPoints = 5_000;
/** Bounds of an explicit `?step=`, seconds. */
export const minStep = 1;
export const maxStep = 3_600;

// Steps a person reads at a glance on a time axis; past the last, any whole number of seconds.
const roundSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600];

/** `?step=` as given: absent or empty means the default (undefined); anything but a whole number 1..3600 is a 400 naming it. */
export function parseStep(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  const step = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(step >= minStep && step <= maxStep)) {
    throw badRequest(`step must be a whole number of seconds from ${minStep} to ${maxStep}; got ${JSON.stringify(raw)}`, { field: 'step' });
  }
  return step;
}

/** Buckets of `step` seconds that cover `spanSeconds` from the first one's start (at least one). */
export const bucketCount = (spanSeconds: number, step: number) => Math.max(1, Math.ceil(spanSeconds / step));

/**
 * The step used for a run whose intervals span `spanSeconds`: the asked one, raised when it would give more than
 * `maxPoints` buckets; without one, the smallest round step giving at most `targetPoints` (1 s for runs under ~8 minutes).
 */
export function chooseStep(spanSeconds: number, requested?: number): number {
  const span = Math.max(0, spanSeconds);
  const smallestFor = (points: number) => Math.max(minStep, Math.ceil(span / points));
  if (requested !== undefined) return Math.max(requested, smallestFor(maxPoints));
  const least = smallestFor(targetPoints);
  return roundSteps.find((step) => step >= least) ?? least;
}
