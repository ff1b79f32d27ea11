/**
 * The dashboards' API calls and query options.
 * Exports: dashboardQuery(id), metricQuery(request, live), recentRunsQuery, fetchMetricQuery(request, signal), Dashboard.
 */
import { api, ApiError, authorizedFetch, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import type { MetricQueryResult } from './metric-query';

export type Dashboard = components['schemas']['Dashboard'];

export const dashboardQuery = (id: string) => ({
  queryKey: ['dashboards', id] as const,
  queryFn: () => unwrap(api.GET('/api/v1/dashboards/{id}', { params: { path: { id } } })),
});

/** The last 200 runs: the range picker's "a run's span" and the names of the `run` label. */
export const recentRunsQuery = {
  queryKey: ['tasks', 'recent', 200] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query: { limit: 200 } } })),
};

/**
 * GET /api/v1/metrics/query?<request>&format=columns (a plain fetch: a filter may repeat, which the typed client cannot
 * send). Columns, not `[time, value]` pairs: the series come aligned as the chart draws them, in half the bytes, and
 * parse into a few flat arrays instead of an array per point (an hour at 1 s from 4 machines is 14,400 of them).
 */
export async function fetchMetricQuery(request: string, signal?: AbortSignal): Promise<MetricQueryResult> {
  const response = await authorizedFetch(`/api/v1/metrics/query?${request}&format=columns`, { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw await ApiError.fromResponse(response);
  const body = (await response.json()) as Partial<MetricQueryResult>;
  const times = Array.isArray(body.times) ? body.times : [];
  return {
    metric: body.metric ?? '',
    unit: body.unit ?? '',
    start: body.start ?? 0,
    end: body.end ?? 0,
    step: body.step ?? 0,
    by: Array.isArray(body.by) ? body.by : [],
    times,
    series: (Array.isArray(body.series) ? body.series : []).filter((s) => Array.isArray(s.values) && s.values.length === times.length),
  };
}

/** One panel's data; refetched every 30 s for a range relative to now (`live`), never for a finished run's span. */
export const metricQuery = (request: string, refetchMs: number | false) => ({
  queryKey: ['metrics', 'query', request] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchMetricQuery(request, signal),
  refetchInterval: refetchMs,
  // A finished run's span never changes: its panels are read once per visit of the app, not again on every return.
  staleTime: refetchMs === false ? Number.POSITIVE_INFINITY : 15_000,
});
