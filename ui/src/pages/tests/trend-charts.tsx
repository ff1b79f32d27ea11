/** TrendCharts({ points }): the test's last finished runs as three small uPlot charts (p95, error rate, requests/s), one point per run. */
import { useMemo } from 'react';
import type { TrendPoint } from '../../api/types';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { trendSeries } from './trend-model';

export default function TrendCharts({ points }: { points: readonly TrendPoint[] }) {
  const series = useMemo(() => trendSeries(points), [points]);
  const p95 = useMemo(() => [{ label: 'p95', values: series.p95 }], [series]);
  const errors = useMemo(() => [{ label: 'errors', values: series.errorPercent }], [series]);
  const requests = useMemo(() => [{ label: 'requests/s', values: series.requestsPerSec }], [series]);
  return (
    <div className="charts">
      <TimeSeriesChart title="p95 latency per run" unit="ms" times={series.times} series={p95} height={180} />
      <TimeSeriesChart title="Error rate per run" unit="%" times={series.times} series={errors} height={180} />
      <TimeSeriesChart title="Requests per second per run" unit="req/s" times={series.times} series={requests} height={180} />
    </div>
  );
}
