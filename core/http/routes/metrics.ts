/** /metrics/catalog and /metrics/query: the workspace's run time series by metric, time range, label filters and step. */
import { Elysia, t } from 'elysia';
import { runLabelNames } from '../../domain/metrics/run-series.ts';
import { queryMetrics } from '../../domain/metrics/query-metrics.ts';
import { type MetricQueryService, queryFormats } from '../../services/metrics/metric-queries.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses } from '../schemas/common.ts';

const CatalogEntry = t.Object(
  {
    name: t.String(),
    unit: t.String(),
    description: t.String(),
    labels: t.Array(t.Object({ name: t.String(), values: t.Array(t.String()) })),
  },
  { title: 'MetricCatalogEntry' },
);

const filter = (label: string) =>
  t.Optional(t.String({ description: `filter on ${label}: \`value\`, \`!value\`, \`~regex\` or \`!~regex\` (anchored); repeatable` }));

const QueryParams = t.Object(
  {
    metric: t.String({ description: `one of ${queryMetrics.map((m) => m.name).join(', ')}` }),
    start: t.Optional(t.String({ description: 'unix seconds, RFC 3339, now or -<duration> (default: end - 1h)' })),
    end: t.Optional(t.String({ description: 'unix seconds, RFC 3339, now or -<duration> (default: now)' })),
    step: t.Optional(t.String({ description: 'a duration such as 10s or 1m, or seconds; at least 1s, at most 11,000 steps (default: range/250)' })),
    by: t.Optional(t.String({ description: `comma-separated labels that split series (${runLabelNames.join(', ')}); default run; empty: one series` })),
    format: t.Optional(
      t.Union(
        queryFormats.map((format) => t.Literal(format)),
        { description: 'points (default): each series as `[unix seconds, value]` pairs; columns: the series aligned on shared `times`, each with its `values` (null where it has none)' },
      ),
    ),
    run: filter('run'),
    machine: filter('machine'),
    test: filter('test'),
  },
  { additionalProperties: true },
);

/** What both answers start with: the query as it was understood. */
const queryHead = {
  metric: t.String(),
  unit: t.String(),
  start: t.Number({ description: 'unix seconds' }),
  end: t.Number({ description: 'unix seconds' }),
  step: t.Number({ description: 'seconds; a point at t covers (t - step, t]' }),
  by: t.Array(t.String()),
};

const QueryView = t.Object(
  {
    ...queryHead,
    series: t.Array(t.Object({ labels: t.Record(t.String(), t.String()), points: t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2, description: '[unix seconds, value]' })) })),
  },
  { title: 'MetricQueryResult' },
);

const ColumnsView = t.Object(
  {
    ...queryHead,
    times: t.Array(t.Number(), { description: 'unix seconds, oldest first, shared by every series; a time no series has marks a gap' }),
    series: t.Array(t.Object({ labels: t.Record(t.String(), t.String()), values: t.Array(t.Union([t.Number(), t.Null()]), { description: 'one per time: the value, or null' }) })),
  },
  { title: 'MetricQueryColumns' },
);

/** The query string as given (a label filter may repeat), not as Elysia folds it. */
function queryParams(request: Request): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URL(request.url).searchParams) {
    const seen = params[name];
    params[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

export const metricRoutes = (deps: RouteDeps & { metricQueries: MetricQueryService }) =>
  new Elysia({ normalize: false, prefix: '/metrics', detail: { tags: ['Metrics'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('/catalog', ({ caller }) => deps.metricQueries.catalog(caller), {
      response: { 200: t.Array(CatalogEntry), 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The metrics and label values of the workspace's runs (empty until a run reported metrics)" },
    })
    .get('/query', ({ caller, request }) => deps.metricQueries.query(caller, queryParams(request)), {
      query: QueryParams,
      response: { 200: t.Union([QueryView, ColumnsView]), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: {
        summary: 'A metric over time: one series per group of `by` labels, one point per step',
        description:
          'Counts are summed per step, rates divide by the step, and latency percentiles come from the merged histogram of every point in the step (never averaged). `format=columns` answers the same series aligned on shared times, as a chart draws them.',
      },
    });
