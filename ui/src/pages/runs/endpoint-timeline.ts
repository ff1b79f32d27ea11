/** Each endpoint's figures per minute (GET /tasks/{id}/endpoints?timeline=true): the rows read tolerantly, the top endpoints as chart series, sparkline points. */
import type { TaskEndpoint } from '../../api/types';

/** One minute of one endpoint (the generated TaskEndpointMinute's fields), as the UI reads it. */
export interface EndpointMinute {
  /** Unix seconds, the start of the minute. */
  t: number;
  requests_per_sec: number;
  /** 0..1 */
  error_rate: number;
  /** Milliseconds. */
  p95: number;
}

/** A row of the endpoints table with its minutes, oldest first ([] when the service sent none). */
export type EndpointWithTimeline = Omit<TaskEndpoint, 'timeline'> & { timeline: EndpointMinute[] };

export type TimelineMetric = 'requests_per_sec' | 'p95' | 'error_rate';

/** What the chart can draw, with the unit and title it is drawn under. */
export const timelineMetrics: readonly { value: TimelineMetric; label: string; unit: string }[] = [
  { value: 'requests_per_sec', label: 'Requests per second', unit: 'req/s' },
  { value: 'p95', label: 'p95 latency', unit: 'ms' },
  { value: 'error_rate', label: 'Error rate', unit: '%' },
];

/** The folded row of the names past the service's limit: many endpoints in one line, not an endpoint to chart. */
export const otherEndpoint = '(other)';

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The minutes of a row as the service sent them. A service without the timeline (older, or the parameter ignored)
 * sends no field: that is no minutes, not an error. Entries without a usable time are dropped, other missing numbers
 * read as 0 (the service's own value for a minute without samples).
 */
export function parseTimeline(value: unknown): EndpointMinute[] {
  if (!Array.isArray(value)) return [];
  const minutes: EndpointMinute[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.t !== 'number' || !Number.isFinite(e.t)) continue;
    minutes.push({ t: e.t, requests_per_sec: finite(e.requests_per_sec), error_rate: finite(e.error_rate), p95: finite(e.p95) });
  }
  return minutes.sort((a, b) => a.t - b.t);
}

/** The service's rows with their minutes read (each row keeps every other field as sent). */
export function withTimelines(rows: readonly TaskEndpoint[]): EndpointWithTimeline[] {
  return rows.map((row) => ({ ...row, timeline: parseTimeline((row as { timeline?: unknown }).timeline) }));
}

/**
 * The `limit` endpoints with the most requests (ties by name), `(other)` left out, in name order: a live run refetches
 * every 2 s, and steps that every virtual user runs in turn have near-equal counts whose rank flips back and forth;
 * by name, the chart's series (and their colours) stay put unless the set itself changes.
 */
export function topEndpointsByRequests<T extends Pick<TaskEndpoint, 'name' | 'requests'>>(rows: readonly T[], limit = 10): T[] {
  const byName = (a: T, b: T) => a.name.localeCompare(b.name, 'en', { numeric: true });
  return rows
    .filter((row) => row.name !== otherEndpoint)
    .sort((a, b) => b.requests - a.requests || byName(a, b))
    .slice(0, limit)
    .sort(byName);
}

export interface TimelineChartData {
  times: number[];
  series: { label: string; values: (number | null)[] }[];
}

/**
 * The chart of `metric` per minute for the given endpoints: the union of their minutes as the x axis. A minute an
 * endpoint has no entry for is a gap; so is its p95 or error rate in a minute without requests, where the service's 0
 * would draw a fall to "0 ms" that never happened. The error rate is drawn in percent.
 */
export function timelineChart(rows: readonly EndpointWithTimeline[], metric: TimelineMetric): TimelineChartData {
  const times = [...new Set(rows.flatMap((row) => row.timeline.map((minute) => minute.t)))].sort((a, b) => a - b);
  const series = rows.map((row) => {
    const byTime = new Map(row.timeline.map((minute) => [minute.t, minute]));
    const values = times.map((t) => {
      const minute = byTime.get(t);
      if (!minute) return null;
      if (metric === 'requests_per_sec') return minute.requests_per_sec;
      if (minute.requests_per_sec <= 0) return null;
      return metric === 'error_rate' ? minute.error_rate * 100 : minute.p95;
    });
    return { label: row.name, values };
  });
  return { times, series };
}

/**
 * The `points` attribute of a sparkline polyline of `values` in a `width` × `height` box (y grows downwards), from 0
 * at the bottom to the largest value at the top; one value is drawn as a level line; none as no points ("").
 */
export function sparklinePoints(values: readonly number[], width: number, height: number, pad = 1): string {
  if (values.length === 0) return '';
  const drawn = values.length === 1 ? [values[0]!, values[0]!] : values;
  const max = Math.max(0, ...drawn);
  const x = (i: number) => pad + (i / (drawn.length - 1)) * (width - 2 * pad);
  // All zeros: a line along the bottom, not a division by zero.
  const y = (v: number) => height - pad - (max > 0 ? (Math.max(0, v) / max) * (height - 2 * pad) : 0);
  return drawn.map((v, i) => `${round(x(i))},${round(y(v))}`).join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;
