/** RunCharts: the run's time series (requests/s, latency p50/p95/p99, error rate, VUs when reported), refetched every 2 s while it is live. */
import { useQuery } from '@tanstack/react-query';
import { fetchTimeSeries, type TimeSeriesPoint } from '../../api/timeseries';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';

const pick = (points: TimeSeriesPoint[], key: keyof Omit<TimeSeriesPoint, 't'>, scale = 1) =>
  points.map((point) => (point[key] === null || point[key] === undefined ? null : (point[key] as number) * scale));

export default function RunCharts({ taskId, live }: { taskId: string; live: boolean }) {
  const series = useQuery({
    queryKey: ['tasks', taskId, 'timeseries', live],
    queryFn: ({ signal }) => fetchTimeSeries(taskId, signal),
    refetchInterval: live ? 2000 : false,
  });
  if (series.isPending) return <Loading label="Loading the charts…" />;
  if (!series.data) return <ErrorNotice error={series.error} />;
  const points = series.data.points;
  if (points.length < 2) {
    const text = live
      ? 'The charts fill in once the first figures arrive.'
      : points.length === 0
        ? 'This run recorded no time series.'
        : 'This run was too short to chart: see its figures above.';
    return <p className="muted">{text}</p>;
  }
  const times = points.map((point) => point.t);
  return (
    <div className="charts">
      <TimeSeriesChart title="Requests per second" unit="req/s" times={times} series={[{ label: 'requests/s', values: pick(points, 'requests_per_sec') }]} />
      <TimeSeriesChart
        title="Latency"
        unit="ms"
        times={times}
        series={[
          { label: 'p50', values: pick(points, 'p50') },
          { label: 'p95', values: pick(points, 'p95') },
          { label: 'p99', values: pick(points, 'p99') },
        ]}
      />
      <TimeSeriesChart title="Error rate" unit="%" times={times} series={[{ label: 'errors', values: pick(points, 'error_rate', 100) }]} />
      {points.some((point) => (point.vus ?? 0) > 0) ? (
        <TimeSeriesChart title="Virtual users" unit="VUs" times={times} series={[{ label: 'VUs', values: pick(points, 'vus') }]} />
      ) : null}
    </div>
  );
}
