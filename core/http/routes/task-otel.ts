/** GET /tasks/:id/otel: the OpenTelemetry metrics a run received over OTLP, paged by series, filtered by metric name. */
import { Elysia, t } from 'elysia';
import { parsePageRequest } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams } from '../schemas/common.ts';
import { decodeOtelCursor, encodeOtelCursor, maxPointsPerPage, type OtelRead } from '../../services/otel/otel-read.ts';

const Series = t.Object(
  {
    name: t.String({ description: 'the metric name; histograms as <name>.count, .sum, .min, .max' }),
    unit: t.String(),
    type: t.String({ description: 'gauge, sum, histogram, exponential_histogram or summary' }),
    labels: t.Record(t.String(), t.String()),
    points: t.Array(t.Array(t.Number(), { minItems: 2, maxItems: 2 }), { description: '[unix seconds, value], oldest first' }),
  },
  { title: 'OtelSeries' },
);

const OtelQuery = t.Object(
  {
    limit: t.Optional(t.String({ description: 'series per page, 1..1000 (default 100); empty means the default' })),
    cursor: t.Optional(t.String({ description: 'opaque cursor from X-Next-Cursor; empty means the first page' })),
    metric: t.Optional(t.String({ description: 'only the series of this metric name (exact)' })),
  },
  { additionalProperties: true },
);

export const taskOtelRoutes = (deps: RouteDeps & { otelRead: OtelRead }) =>
  new Elysia({ normalize: false, prefix: '/tasks', detail: { tags: ['Tasks'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/:id/otel',
      async ({ caller, params, query, request, set }) => {
        const task = await deps.tasks.find(caller, params.id);
        const { limit } = parsePageRequest({ limit: query.limit });
        const cursor = query.cursor ? decodeOtelCursor(query.cursor) : null;
        const { metrics, next } = await deps.otelRead.page(task.id, { limit, cursor, metric: query.metric || undefined });
        if (next) {
          const encoded = encodeOtelCursor(next);
          const url = new URL(request.url);
          url.searchParams.set('cursor', encoded);
          url.searchParams.set('limit', String(limit));
          set.headers['x-next-cursor'] = encoded;
          set.headers.link = `<${url.pathname}${url.search}>; rel="next"`;
        }
        return { metrics };
      },
      {
        params: IdParams,
        query: OtelQuery,
        response: { 200: t.Object({ metrics: t.Array(Series) }, { title: 'TaskOtel' }), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: {
          summary: 'OpenTelemetry metrics the run received (OTLP)',
          description: `Series in the order they were first received, up to ?limit= per page and ${maxPointsPerPage} points per page; a series cut by the point budget continues on the next page (Link, X-Next-Cursor). The id is the task's UUID or public id.`,
        },
      },
    );
