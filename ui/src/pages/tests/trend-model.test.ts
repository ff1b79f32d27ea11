import { describe, expect, test } from 'bun:test';
import type { TrendPoint } from '../../api/types';
import { trendSeries } from './trend-model';

const point = (finished_at: string, p95: number, error_rate: number, requests_per_sec: number): TrendPoint => ({
  id: finished_at,
  public_id: '1',
  finished_at,
  status: 'completed',
  verdict: null,
  p50: 0,
  p95,
  p99: 0,
  error_rate,
  requests_per_sec,
  total_requests: 0,
});

describe('trendSeries', () => {
  test('one point per run, error rate in percent', () => {
    const series = trendSeries([point('2026-01-01T00:00:00Z', 10, 0.01, 50), point('2026-01-01T00:01:00Z', 12, 0, 55)]);
    expect(series.times).toEqual([1767225600, 1767225660]);
    expect(series.p95).toEqual([10, 12]);
    expect(series.errorPercent).toEqual([1, 0]);
    expect(series.requestsPerSec).toEqual([50, 55]);
  });
  test('times strictly increase', () => {
    const series = trendSeries([point('2026-01-01T00:00:00Z', 1, 0, 1), point('2026-01-01T00:00:00Z', 1, 0, 1)]);
    expect(series.times[1]!).toBeGreaterThan(series.times[0]!);
  });
});
