/**
 * metrics_catalog, query_metrics, get_otel_timeseries and list_dashboards: run time series, bounded for a model's
 * context (at most a few hundred points per series, a capped number of series), saying when they were bounded.
 */
import { type Static, Type } from '@sinclair/typebox';
import type { Query } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, NextCursor, pageArgs, pageOf } from '../paging.ts';
import { RunId } from './runs.ts';

/** Points per series at most in any answer (Testkube's insight series keep a similar cap). */
export const maxPointsPerSeries = 300;
export const maxSeries = 50;
const maxLabelValues = 50;

const Point = Type.Array(Type.Union([Type.Number(), Type.Null()]), { minItems: 2, maxItems: 2, description: '[unix seconds, value]; value null where a step has nothing to measure' });
const Labels = Type.Record(Type.String(), Type.String());

interface QueryAnswer {
  metric: string;
  unit: string;
  start: number;
  end: number;
  step: number;
  by: string[];
  series: { labels: Record<string, string>; points: (number | null)[][] }[];
}

interface CatalogEntry {
  name: string;
  unit: string;
  description: string;
  labels: { name: string; values: string[] }[];
}

export const metricsCatalog = defineTool({
  name: 'metrics_catalog',
  title: 'Metrics catalog',
  description:
    "The metrics query_metrics can chart for this workspace's runs (requests, request_rate, errors, error_rate in errors/s, error_ratio " +
    '0..1, latency_p50/p95/p99, latency_mean, latency_max in milliseconds): name, unit, what it means, and the labels (run, machine, test) ' +
    `with their values (at most ${maxLabelValues} shown per label; values_total counts them all). Empty until a run has reported metrics.`,
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({
    metrics: Type.Array(
      Type.Object({
        name: Type.String(),
        unit: Type.String(),
        description: Type.String(),
        labels: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.String()), values_total: Type.Integer() })),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run(_args, { rest }) {
    const catalog = await rest.get<CatalogEntry[]>('/metrics/catalog');
    return {
      metrics: catalog.map((entry) => ({
        name: entry.name,
        unit: entry.unit,
        description: entry.description,
        labels: entry.labels.map((label) => ({ name: label.name, values: label.values.slice(0, maxLabelValues), values_total: label.values.length })),
      })),
    };
  },
});

const Filter = (label: string) =>
  Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 10 })], {
      description: `only series whose ${label} label matches: \`value\`, \`!value\`, \`~regex\` or \`!~regex\` (anchored); a list applies every filter`,
    }),
  );

const Time = (what: string) => Type.Optional(Type.String({ minLength: 1, description: `${what}: unix seconds, RFC 3339, now, or -<duration> such as -1h` }));

export const queryMetrics = defineTool({
  name: 'query_metrics',
  title: 'Query run metrics',
  description:
    "A metric of the workspace's runs over time (names from metrics_catalog: request_rate in requests/s, error_ratio as a fraction 0..1, " +
    'latency_p95 in milliseconds, ...): one series per group of `by` labels (default: one per run), one point per step as [unix seconds, ' +
    'value]. Percentiles per step come from merged histograms, never averaged. Filter by run, machine or test (their UUIDs). ' +
    `At most ${maxPointsPerSeries} points per series (the step is widened to fit, and note says so) and ${maxSeries} series.`,
  input: Type.Object(
    {
      metric: Type.String({ minLength: 1, description: 'a metric name from metrics_catalog' }),
      start: Time('range start (default end - 1h)'),
      end: Time('range end (default now)'),
      step: Type.Optional(Type.String({ minLength: 1, description: 'seconds per point, or a duration such as 10s, 1m (default: the range / 250)' })),
      by: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 3, description: 'labels that split series: run, machine, test; [] for one series' })),
      run: Filter('run'),
      machine: Filter('machine'),
      test: Filter('test'),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    metric: Type.String(),
    unit: Type.String(),
    start: Type.Number({ description: 'unix seconds' }),
    end: Type.Number({ description: 'unix seconds' }),
    step: Type.Number({ description: 'seconds; a point at t covers (t - step, t]' }),
    by: Type.Array(Type.String()),
    series: Type.Array(Type.Object({ labels: Labels, points: Type.Array(Point) })),
    series_total: Type.Integer({ description: 'series the query matched; more than returned when capped' }),
    note: Type.Optional(Type.String()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ metric, start, end, step, by, run, machine, test }, { rest }) {
    const query: Query = { metric, start, end, step, by: by?.join(','), run, machine, test };
    let answer = await rest.get<QueryAnswer>('/metrics/query', query);
    const notes: string[] = [];
    const longest = Math.max(0, ...answer.series.map((series) => series.points.length));
    if (longest > maxPointsPerSeries) {
      // Widen the step on the service, over the same range: its points are then merged properly (histograms), not thinned here.
      const wider = Math.max(answer.step * 2, Math.ceil((answer.end - answer.start) / maxPointsPerSeries));
      answer = await rest.get<QueryAnswer>('/metrics/query', { ...query, start: String(answer.start), end: String(answer.end), step: String(wider) });
      notes.push(`step widened to ${answer.step} s to keep at most ${maxPointsPerSeries} points per series`);
    }
    const series = answer.series.slice(0, maxSeries).map((each) => ({ labels: each.labels, points: each.points.slice(-maxPointsPerSeries) }));
    if (answer.series.length > maxSeries) notes.push(`${answer.series.length} series matched; the first ${maxSeries} are returned: filter by run, machine or test`);
    return {
      metric: answer.metric,
      unit: answer.unit,
      start: answer.start,
      end: answer.end,
      step: answer.step,
      by: answer.by,
      series,
      series_total: answer.series.length,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    };
  },
});

const OtelSeries = Type.Object({
  name: Type.String({ description: 'the metric name; histograms as <name>.count, .sum, .min, .max' }),
  unit: Type.String(),
  type: Type.String({ description: 'gauge, sum, histogram, exponential_histogram or summary' }),
  labels: Labels,
  points: Type.Array(Point),
  points_total: Type.Integer({ description: 'points this page holds for the series before thinning' }),
});

/** Evenly spaced points, the first and the last kept: OTEL points are raw samples, so no step to widen on the service. */
export function thinPoints<Point>(points: Point[], max: number): Point[] {
  if (points.length <= max) return points;
  return Array.from({ length: max }, (_, index) => points[Math.round((index * (points.length - 1)) / (max - 1))]!);
}

export const getOtelTimeseries = defineTool({
  name: 'get_otel_timeseries',
  title: 'OpenTelemetry metrics of a run',
  description:
    'The OpenTelemetry metrics a run received over OTLP (from the system under test or the load tool): one series per metric and label ' +
    `set, points as [unix seconds, value] in the metric's own unit. limit series per page (default 20); at most ${maxPointsPerSeries} points per ` +
    'series, thinned evenly when there are more (points_total says how many). Empty when nothing was sent for the run.',
  input: Type.Object(
    {
      run_id: RunId,
      metric: Type.Optional(Type.String({ minLength: 1, description: 'only this metric name (exact)' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'series per page' })),
      cursor: pageArgs.cursor,
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ run_id: Type.String(), series: Type.Array(OtelSeries), next_cursor: NextCursor }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ run_id, metric, limit, cursor }, { rest }) {
    const { body, next_cursor } = await rest.paged<{ metrics: Omit<Static<typeof OtelSeries>, 'points_total'>[] }>(
      `/tasks/${encodeURIComponent(run_id)}/otel`,
      { limit, cursor },
      { metric },
    );
    const series = body.metrics.map((each) => ({ ...each, points: thinPoints(each.points, maxPointsPerSeries), points_total: each.points.length }));
    return { run_id, series, next_cursor };
  },
});

const Dashboard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  panels: Type.Array(
    Type.Object({
      title: Type.String(),
      query: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], { description: 'a query_metrics query (query string or its parameters)' }),
      chart: Type.String(),
    }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const listDashboards = defineTool({
  name: 'list_dashboards',
  title: 'List dashboards',
  description: `Saved metric dashboards of the workspace: a name and panels (a title, a metrics query as query_metrics takes it, a chart type). ${newestFirst}`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(Dashboard),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<Static<typeof Dashboard>>('/dashboards', { limit, cursor }),
});
