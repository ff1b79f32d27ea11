/** GET /api/v1/tasks/{id}/timeseries until the generated schema has it. Exports: TimeSeries, TimeSeriesPoint, fetchTimeSeries. */
import { ApiError, authorizedFetch } from './client';

export interface TimeSeriesPoint {
  /** unix seconds */
  t: number;
  requests_per_sec: number | null;
  error_rate: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  vus: number | null;
}

export interface TimeSeries {
  step: number;
  points: TimeSeriesPoint[];
}

export async function fetchTimeSeries(taskId: string, signal?: AbortSignal): Promise<TimeSeries> {
  const response = await authorizedFetch(`/api/v1/tasks/${encodeURIComponent(taskId)}/timeseries`, {
    headers: { Accept: 'application/json' },
    signal,
  });
  if (!response.ok) throw await ApiError.fromResponse(response);
  const body = (await response.json()) as Partial<TimeSeries>;
  return { step: body.step ?? 0, points: Array.isArray(body.points) ? body.points : [] };
}
