/** RecentRuns({ testId }): this test's latest 10 runs (GET /tasks?test_id=), with status and verdict, linked to their pages; refreshed while one is live. */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { isLiveStatus } from '../../api/queries';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatMs, formatPercent, formatRate, formatRelativeTime } from '../../components/common/formatters';
import { StatusBadge } from '../../components/common/status-badge';
import { VerdictBadge } from '../runs/verdict-badge';

const SHOWN = 10;

export function RecentRuns({ testId }: { testId: string }) {
  const id = useId();
  const runs = useQuery({
    queryKey: ['tasks', 'list', 'by-test', testId],
    queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query: { test_id: testId, limit: SHOWN } } })),
    refetchInterval: (query) => (query.state.data?.some((task) => isLiveStatus(task.status)) ? 3000 : 30_000),
  });
  const shown = (runs.data ?? []).slice(0, SHOWN);

  return (
    <section className="panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Recent runs</h2>
      {runs.isPending ? (
        <p className="muted">Loading the runs…</p>
      ) : runs.error ? (
        <ErrorNotice error={runs.error} />
      ) : shown.length === 0 ? (
        <p className="muted">This test has not run lately. Start a run above.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">The latest runs of this test</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col" className="num">p95</th>
                <th scope="col" className="num">Errors</th>
                <th scope="col" className="num">Requests/s</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((task) => {
                const measured = task.status !== 'pending';
                const when = task.started_at ?? task.created_at;
                return (
                  <tr key={task.id}>
                    <th scope="row">
                      <Link href={`/runs/${encodeURIComponent(task.public_id || task.id)}`}>{task.public_id || task.id.slice(0, 8)}</Link>
                    </th>
                    <td>
                      <span className="badges">
                        <StatusBadge status={task.status} />
                        <VerdictBadge verdict={task.verdict} />
                      </span>
                    </td>
                    <td>
                      <time dateTime={when} title={formatDateTime(when)}>
                        {formatRelativeTime(when)}
                      </time>
                    </td>
                    <td className="num">{measured ? formatMs(task.p95) : '–'}</td>
                    <td className="num">{measured ? formatPercent(task.error_rate) : '–'}</td>
                    <td className="num">{measured ? formatRate(task.requests_per_sec) : '–'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link href={`/runs?test=${encodeURIComponent(testId)}`}>All runs of this test</Link>
      </p>
    </section>
  );
}
