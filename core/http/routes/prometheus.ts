/**
 * /prometheus/api/v1/...: the Prometheus HTTP API over the workspace's run metrics, so a Grafana Prometheus data source
 * (URL `{base_url}/prometheus`, header `Authorization: Bearer psk_...` with metrics:read) shows runs. GET with a query
 * string, or POST with a form body, as Prometheus takes both.
 */
import { Elysia, t } from 'elysia';
import type { Caller } from '../../services/caller.ts';
import type { PromAnswer, PrometheusApi } from '../../services/metrics/prometheus-api.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses } from '../schemas/common.ts';

const Answer = t.Object(
  {
    status: t.String({ description: 'success or error' }),
    data: t.Optional(t.Unknown()),
    errorType: t.Optional(t.String()),
    error: t.Optional(t.String()),
  },
  { title: 'PrometheusAnswer', description: "Prometheus' JSON envelope" },
);
const responses = { 200: Answer, 400: Answer, 401: errorResponses[401], 403: errorResponses[403] };

/** Query string and form body together, as Prometheus reads them. */
function paramsOf(request: Request, body: unknown): URLSearchParams {
  const params = new URL(request.url).searchParams;
  if (typeof body === 'string') for (const [name, value] of new URLSearchParams(body)) params.append(name, value);
  return params;
}

/** The same parameters as a form body (Prometheus clients POST long queries). */
const formBody = {
  required: false,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          time: { type: 'string' },
          start: { type: 'string' },
          end: { type: 'string' },
          step: { type: 'string' },
          'match[]': { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

type Handler = (caller: Caller, params: URLSearchParams, name: string) => Promise<PromAnswer>;

export const prometheusRoutes = (deps: RouteDeps & { prometheus: PrometheusApi }) => {
  const api = deps.prometheus;
  const endpoints: [string, Handler, string][] = [
    ['/query', (c, p) => api.query(c, p), 'Instant query (PromQL subset: selectors, rate, increase, sum/avg/min/max/count by, histogram_quantile, + - * /)'],
    ['/query_range', (c, p) => api.queryRange(c, p), 'Range query: start, end, step; at most 11,000 points per series'],
    ['/labels', (c, p) => api.labels(c, p), 'Label names of the workspace run series'],
    ['/label/:name/values', (c, p, n) => api.labelValues(c, n, p), "A label's values (__name__: the metric names)"],
    ['/series', (c, p) => api.series(c, p), 'The series that match[] selects'],
  ];
  let app = new Elysia({ normalize: false, prefix: '/prometheus/api/v1', detail: { tags: ['Prometheus'], security: bearerSecurity } }).use(
    requireCaller(deps.authenticate),
  );
  for (const [path, handler, summary] of endpoints) {
    const handle = async ({ caller, request, body, params, set }: { caller: Caller; request: Request; body: unknown; params?: Record<string, string>; set: { status?: number | string } }) => {
      const answer = await handler(caller, paramsOf(request, body), params?.name ?? '');
      set.status = answer.status;
      return answer.body;
    };
    const options = { response: responses, detail: { summary } };
    app = app.get(path, handle as never, options as never).post(path, handle as never, { ...options, detail: { summary: `${summary} (form body)`, requestBody: formBody } } as never) as never;
  }
  return app;
};
