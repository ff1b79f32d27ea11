/**
 * A metric query's series as aligned columns (GET /metrics/query?format=columns): one list of times that every series
 * shares and, per series, its value at each time or null, with a null time inserted where no series has a point for
 * longer than a step, so that a chart's line breaks across a quiet stretch. What a chart draws without aligning the
 * series itself, in fewer bytes than `[time, value]` pairs and far fewer objects for a browser to parse.
 */

export interface PointSeries {
  labels: Record<string, string>;
  points: readonly (readonly [number, number])[];
}

export interface MetricColumns {
  times: number[];
  series: { labels: Record<string, string>; values: (number | null)[] }[];
}

/**
 * The columns of `series` (each one's points oldest first, as the query answers them; one out of order is sorted first)
 * at `step` seconds: the times are merged in one pass, no set of times and no sort.
 */
export function metricColumnsOf(series: readonly PointSeries[], step: number): MetricColumns {
  const gap = (step > 0 ? step : 1) * 1.5;
  const sorted = series.map((one) => {
    const points = one.points;
    for (let i = 1; i < points.length; i++) if (points[i]![0] < points[i - 1]![0]) return [...points].sort((a, b) => a[0] - b[0]);
    return points;
  });
  const count = sorted.length;
  const cursor = new Array<number>(count).fill(0);
  const times: number[] = [];
  const columns: (number | null)[][] = sorted.map(() => []);
  for (;;) {
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const points = sorted[i]!;
      if (cursor[i]! < points.length && points[cursor[i]!]![0] < next) next = points[cursor[i]!]![0];
    }
    if (next === Number.POSITIVE_INFINITY) break;
    const previous = times.length > 0 ? times[times.length - 1]! : undefined;
    if (previous !== undefined && next - previous > gap) {
      times.push(previous + (step > 0 ? step : 1));
      for (let i = 0; i < count; i++) columns[i]!.push(null);
    }
    times.push(next);
    for (let i = 0; i < count; i++) {
      const points = sorted[i]!;
      let at = cursor[i]!;
      let value: number | null = null;
      // Equal times within one series (not expected) keep the last value, as a map of time to value would.
      while (at < points.length && points[at]![0] === next) {
        const candidate = points[at]![1];
        value = Number.isFinite(candidate) ? candidate : null;
        at++;
      }
      cursor[i] = at;
      columns[i]!.push(value);
    }
  }
  return { times, series: series.map((one, i) => ({ labels: one.labels, values: columns[i]! })) };
}
