/** How many VUs are due at a moment of the run: segments one after the other, each a linear ramp (or a constant). */
import type { LoadSegment } from './plan.ts';

export function totalMs(segments: readonly LoadSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.durationMs, 0);
}

/** The largest number of VUs the segments ever ask for (the VUs the engine makes). */
export function peakVus(segments: readonly LoadSegment[]): number {
  return segments.reduce((peak, segment) => Math.max(peak, segment.from, segment.to), 0);
}

/**
 * The VUs due `elapsedMs` into the run, or null once the segments are over. Within a ramp the count is the nearest
 * whole number to the line (a ramp from 0 to 4 over 2 s has its first VU at 250 ms, its fourth at 1750 ms); a segment's
 * end belongs to the next one.
 */
export function vusAt(segments: readonly LoadSegment[], elapsedMs: number): number | null {
  let start = 0;
  for (const segment of segments) {
    const end = start + segment.durationMs;
    if (elapsedMs < end) {
      const progress = segment.durationMs > 0 ? Math.max(0, elapsedMs - start) / segment.durationMs : 1;
      return Math.round(segment.from + (segment.to - segment.from) * progress);
    }
    start = end;
  }
  return null;
}
