/** The trend chart's data: one point per finished run (oldest first), x the time it finished in seconds, p95, error rate in %, requests/s. */
import type { TrendPoint } from '../../api/types';

export interface TrendSeries {
  times: number[];
  p95: number[];
  errorPercent: number[];
  requestsPerSec: number[];
}

export function trendSeries(points: readonly TrendPoint[]): TrendSeries {
  // uPlot needs increasing x: two runs finishing in the same second are nudged apart.
  const times: number[] = [];
  for (const point of points) {
    const t = Date.parse(point.finished_at) / 1000;
    const previous = times[times.length - 1];
    times.push(previous !== undefined && t <= previous ? previous + 0.001 : t);
  }
  return {
    times,
    p95: points.map((p) => p.p95),
    errorPercent: points.map((p) => p.error_rate * 100),
    requestsPerSec: points.map((p) => p.requests_per_sec),
  };
}
