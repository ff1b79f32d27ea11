/**
 * Dashboard panels' metric queries (GET /api/v1/metrics/query), pure logic.
 * Exports: METRICS, CHART_TYPES, RANGES, queryParams(query), rangeOf(choice, run?), requestOf(query, range),
 * seriesLabelsOf(result, nameOf?), lastValuesOf(result, nameOf?), seriesLabelOf(labels, nameOf?), durationSeconds(text), queryText(query).
 */
import type { components } from '../../api/schema';

/** The run metrics the query endpoint knows (docs/metrics.md). */
export const METRICS = [
  { name: 'request_rate', label: 'Requests per second' },
  { name: 'requests', label: 'Requests' },
  { name: 'errors', label: 'Errors' },
  { name: 'error_rate', label: 'Errors per second' },
  { name: 'error_ratio', label: 'Error ratio (errors / requests)' },
  { name: 'latency_p50', label: 'Latency p50' },
  { name: 'latency_p95', label: 'Latency p95' },
  { name: 'latency_p99', label: 'Latency p99' },
  { name: 'latency_mean', label: 'Latency mean' },
  { name: 'latency_max', label: 'Latency max' },
] as const;

export const CHART_TYPES = ['line', 'area', 'bar', 'stat', 'table', 'heatmap'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** The label names a query may split by or filter on. */
export const LABELS = ['run', 'machine', 'test'] as const;
export type LabelName = (typeof LABELS)[number];

/** At most this many steps per series (the API refuses more). */
export const MAX_STEPS = 11_000;

export const RANGES = [
  { id: '15m', label: 'Last 15 minutes', seconds: 900 },
  { id: '1h', label: 'Last hour', seconds: 3600 },
  { id: '6h', label: 'Last 6 hours', seconds: 21_600 },
  { id: '24h', label: 'Last 24 hours', seconds: 86_400 },
] as const;
export type RangeId = (typeof RANGES)[number]['id'];

/** The time range of the whole dashboard: relative to now, or the span of one run. */
export type RangeChoice = { kind: 'relative'; id: RangeId } | { kind: 'run'; runId: string };

/** What a range sends: `start` and `end` as the query endpoint takes them, and its length in seconds. */
export interface TimeRange {
  start: string;
  end: string;
  seconds: number;
}

/** A run's times, as a task carries them. */
export interface RunSpan {
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The range a choice stands for; null for a run not loaded yet or that never started. */
export function rangeOf(choice: RangeChoice, run?: RunSpan | null, now: number = Date.now()): TimeRange | null {
  if (choice.kind === 'relative') {
    const range = RANGES.find((r) => r.id === choice.id) ?? RANGES[1];
    return { start: `-${range.id}`, end: 'now', seconds: range.seconds };
  }
  if (!run) return null;
  const startMs = Date.parse(run.started_at ?? run.created_at);
  if (Number.isNaN(startMs)) return null;
  const finishedMs = run.finished_at ? Date.parse(run.finished_at) : now;
  // A point at t covers (t - step, t]: a little margin each side keeps the first and last seconds.
  const start = Math.floor(startMs / 1000) - 1;
  const end = Math.max(start + 2, Math.ceil((Number.isNaN(finishedMs) ? now : finishedMs) / 1000) + 1);
  return { start: String(start), end: String(end), seconds: end - start };
}

/** A duration as the API takes it (`10s`, `1m30s`, `500ms`, or seconds) in seconds; null when it is not one. */
export function durationSeconds(text: string): number | null {
  const value = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value) > 0 ? Number(value) : null;
  if (!/^(?:\d+(?:ms|s|m|h|d|w|y))+$/.test(value)) return null;
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 };
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)) seconds += Number(amount) * units[unit!]!;
  return seconds > 0 ? seconds : null;
}

/** A panel's stored query (a query string, or an object of parameters) as parameters; a filter may repeat. */
export function queryParams(query: string | Record<string, unknown>): URLSearchParams {
  if (typeof query === 'string') return new URLSearchParams(query.trim().replace(/^\?/, ''));
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === null || one === undefined) continue;
      params.append(name, typeof one === 'object' ? JSON.stringify(one) : String(one));
    }
  }
  return params;
}

/** The query as one line of text (for captions and the editor). */
export function queryText(query: string | Record<string, unknown>): string {
  return decodeURIComponent(queryParams(query).toString().replace(/\+/g, ' '));
}

/**
 * The query string to send for a panel in a time range: the panel's parameters with the dashboard's `start` and `end`
 * (the range picker wins over times stored in the panel), and its `step` dropped when the range would need more
 * than MAX_STEPS of it (the API then picks range/250).
 */
export function requestOf(query: string | Record<string, unknown>, range: TimeRange): string {
  const params = queryParams(query);
  params.delete('start');
  params.delete('end');
  const step = params.get('step');
  if (step !== null) {
    const seconds = durationSeconds(step);
    if (seconds !== null && (seconds < 1 || Math.ceil(range.seconds / seconds) > MAX_STEPS)) params.delete('step');
  }
  params.set('start', range.start);
  params.set('end', range.end);
  return params.toString();
}

/** What GET /metrics/query?format=columns answers: the series aligned on shared times (a time where no series has a
 * value marks a gap: the line breaks), as a chart draws them. */
export type MetricQueryResult = components['schemas']['MetricQueryColumns'];

/** Names label values for people (a run's public id, a test's name); the value itself when unknown. */
export type NameOf = (label: string, value: string) => string;

export function seriesLabelOf(labels: Record<string, string>, nameOf: NameOf = (_l, v) => v, fallback = 'all'): string {
  const parts = Object.entries(labels).map(([label, value]) => `${label} ${nameOf(label, value)}`);
  return parts.length ? parts.join(', ') : fallback;
}

/** Each series' label, as the chart's legend shows it. */
export function seriesLabelsOf(result: MetricQueryResult, nameOf?: NameOf): string[] {
  return result.series.map((s) => seriesLabelOf(s.labels, nameOf, result.metric));
}

/** Each series' last value, its label and the time of that value (for `stat` and `table` panels). */
export function lastValuesOf(result: MetricQueryResult, nameOf?: NameOf): { label: string; value: number | null; at: number | null }[] {
  return result.series.map((s) => {
    let at = s.values.length - 1;
    while (at >= 0 && s.values[at] === null) at--;
    return { label: seriesLabelOf(s.labels, nameOf, result.metric), value: at >= 0 ? s.values[at]! : null, at: at >= 0 ? (result.times[at] ?? null) : null };
  });
}

/** The unit to show: the API's, or ms for a latency when it names none. */
export function unitOf(result: Pick<MetricQueryResult, 'unit' | 'metric'>): string {
  return result.unit || (result.metric.startsWith('latency') ? 'ms' : '');
}

/** The dashboard's range as its URL names it (`?run=<id>`, else `?range=<id>`, else the last hour). */
export function rangeChoiceOf(params: URLSearchParams): RangeChoice {
  const runId = params.get('run') ?? '';
  if (runId) return { kind: 'run', runId };
  const id = params.get('range');
  return { kind: 'relative', id: (RANGES.some((r) => r.id === id) ? id : '1h') as RangeId };
}

/** How often panels are read again: every 30 s for a range relative to now, 5 s for a live run, never for a finished one. */
export function refetchMsOf(choice: RangeChoice, run: RunSpan | null): number | false {
  if (choice.kind === 'relative') return 30_000;
  return run !== null && !run.finished_at ? 5_000 : false;
}
