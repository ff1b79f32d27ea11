/** TestTrend({ testId }): the last 20 finished runs of the test (GET /tests/{id}/trend) charted, then a table of each run's figures and verdict. */
import { lazy, Suspense, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { testTrendQuery } from '../../api/queries';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatMs, formatPercent, formatRate } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { StatusBadge } from '../../components/common/status-badge';
import { VerdictBadge } from '../runs/verdict-badge';

const TrendCharts = lazy(() => import('./trend-charts'));
const LIMIT = 20;

export function TestTrend({ testId, baselineId }: { testId: string; baselineId: string | null }) {
  const id = useId();
  const trend = useQuery({ ...testTrendQuery(testId, LIMIT), refetchInterval: 30_000 });
  const points = trend.data ?? [];
  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Trend of the last {LIMIT} runs</h2>
      {trend.isPending ? (
        <Loading label="Loading the trend…" />
      ) : trend.error ? (
        <ErrorNotice error={trend.error} />
      ) : points.length === 0 ? (
        <p className="muted">No finished run yet: the trend starts with the first run that completes.</p>
      ) : (
        <>
          {points.length >= 2 ? (
            <Suspense fallback={<Loading label="Loading the charts…" />}>
              <TrendCharts points={points} />
            </Suspense>
          ) : (
            <p className="muted">One finished run so far: the charts start with the second.</p>
          )}
          <div className="table-wrap">
            <table>
              <caption>Finished runs, oldest first, with their figures and verdict</caption>
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Finished</th>
                  <th scope="col">Status and verdict</th>
                  <th scope="col" className="num">
                    p95
                  </th>
                  <th scope="col" className="num">
                    Errors
                  </th>
                  <th scope="col" className="num">
                    Requests/s
                  </th>
                </tr>
              </thead>
              <tbody>
                {points.map((point) => (
                  <tr key={point.id}>
                    <th scope="row">
                      <Link href={`/runs/${encodeURIComponent(point.public_id || point.id)}`}>{point.public_id || point.id.slice(0, 8)}</Link>
                      {point.id === baselineId ? <span className="badge badge-info"> baseline</span> : null}
                    </th>
                    <td>
                      <time dateTime={point.finished_at}>{formatDateTime(point.finished_at)}</time>
                    </td>
                    <td>
                      <span className="badges">
                        <StatusBadge status={point.status} />
                        <VerdictBadge verdict={point.verdict} />
                      </span>
                    </td>
                    <td className="num">{formatMs(point.p95)}</td>
                    <td className="num">{formatPercent(point.error_rate)}</td>
                    <td className="num">{formatRate(point.requests_per_sec)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
