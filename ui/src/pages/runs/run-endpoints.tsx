/**
 * RunEndpoints({ taskId, live }): the run's figures per endpoint (GET /tasks/{id}/endpoints?timeline=true): a chart of
 * the top 10 per minute, and a table sortable by any column (Errors, p50 and Max hide on narrow screens) whose
 * requests/s carry a sparkline of their minutes; refetched every 2 s while live.
 */
import { lazy, Suspense, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatCount, formatMs, formatPercent, formatRate } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { EndpointSparkline } from './endpoint-sparkline';
import type { EndpointWithTimeline } from './endpoint-timeline';
import { runEndpointsQuery } from './endpoints-query';
import { SortableHeader } from './sortable-header';
import { nextSort, sortRows, type Sort } from './table-sort';

// uPlot only when the chart is drawn, as the run's other charts: it stays out of the first page's bundle.
const EndpointTimelineChart = lazy(() => import('./endpoint-timeline-chart'));

type Column = keyof Omit<EndpointWithTimeline, 'timeline'>;

/** `compact`: hidden when the table's container is narrow (a tablet), where the others still fit. */
const columns: { key: Column; label: string; format?(value: number): string; compact?: boolean }[] = [
  { key: 'name', label: 'Endpoint' },
  { key: 'requests', label: 'Requests', format: formatCount },
  { key: 'errors', label: 'Errors', format: formatCount, compact: true },
  { key: 'error_rate', label: 'Error rate', format: formatPercent },
  { key: 'requests_per_sec', label: 'Requests/s', format: formatRate },
  { key: 'p50', label: 'p50', format: formatMs, compact: true },
  { key: 'p95', label: 'p95', format: formatMs },
  { key: 'p99', label: 'p99', format: formatMs },
  { key: 'max', label: 'Max', format: formatMs, compact: true },
];

export function RunEndpoints({ taskId, live }: { taskId: string; live: boolean }) {
  const id = useId();
  const [sort, setSort] = useState<Sort<Column>>({ key: 'requests', direction: 'descending' });
  const endpoints = useQuery({ ...runEndpointsQuery(taskId, live), refetchInterval: live ? 2000 : false });
  const onSort = (column: Column) => setSort((current) => nextSort(current, column, column === 'name' ? 'ascending' : 'descending'));
  const sortedBy = columns.find((c) => c.key === sort.key)!.label;

  let body;
  if (endpoints.isPending) body = <Loading label="Loading the endpoints…" />;
  else if (!endpoints.data) body = <ErrorNotice error={endpoints.error} />;
  else if (endpoints.data.length === 0)
    body = <p className="muted">{live ? 'The endpoints appear once the first figures arrive.' : 'This run recorded no figures per endpoint.'}</p>;
  else
    body = (
      <>
        <Suspense fallback={<Loading label="Loading the chart…" />}>
          <EndpointTimelineChart rows={endpoints.data} live={live} />
        </Suspense>
        <div className="table-wrap responsive-table">
          <table className="endpoints-table">
            <caption>
              Figures per endpoint{live ? ' so far' : ''}, sorted by {sortedBy.toLowerCase()} ({sort.direction}); press a column header to sort
            </caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <SortableHeader
                    key={column.key}
                    label={column.label}
                    column={column.key}
                    sort={sort}
                    onSort={onSort}
                    numeric={column.key !== 'name'}
                    className={column.compact ? 'compact-hide' : undefined}
                  />
                ))}
              </tr>
            </thead>
            <tbody>
              {sortRows(endpoints.data, sort).map((endpoint) => (
                <tr key={endpoint.name}>
                  <th scope="row" className="endpoint-name">
                    {endpoint.name}
                  </th>
                  {columns.slice(1).map((column) => (
                    <td key={column.key} className={column.compact ? 'num compact-hide' : 'num'}>
                      {column.key === 'requests_per_sec' ? <EndpointSparkline minutes={endpoint.timeline} /> : null}
                      {column.format!(endpoint[column.key] as number)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    );

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Endpoints</h2>
      {body}
      {endpoints.data && endpoints.error ? <ErrorNotice error={endpoints.error} /> : null}
    </section>
  );
}
