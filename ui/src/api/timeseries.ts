/** GET /api/v1/tasks/{id}/timeseries (typed by the generated schema). Exports: TimeSeries, TimeSeriesPoint, fetchTimeSeries. */
import { api, unwrap } from './client';
import type { TimeseriesPoint } from './types';

export type TimeSeriesPoint = TimeseriesPoint;

export interface TimeSeries {
  step: number;
  points: TimeSeriesPoint[];
}

export async function fetchTimeSeries(taskId: string, signal?: AbortSignal): Promise<TimeSeries> {
  const body = await unwrap(api.GET('/api/v1/tasks/{id}/timeseries', { params: { path: { id: taskId } }, signal }));
  return { step: body?.step ?? 0, points: Array.isArray(body?.points) ? body.points : [] };
}
