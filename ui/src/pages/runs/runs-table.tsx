/** RunsTable: runs with status, test, machines, timing and figures (p50/p95/p99, error rate, requests/s, total). */
import { Link } from 'wouter';
import type { Task } from '../../api/types';
import { StatusBadge } from '../../components/common/status-badge';
import {
  durationBetween,
  formatCount,
  formatDuration,
  formatMs,
  formatPercent,
  formatRate,
  formatRelativeTime,
  formatDateTime,
} from '../../components/common/formatters';

export function runHref(task: Pick<Task, 'id' | 'public_id'>): string {
  return `/runs/${encodeURIComponent(task.public_id || task.id)}`;
}

export function RunsTable(props: { runs: Task[]; testNames: Map<string, string>; machineNames: Map<string, string>; caption: string }) {
  const { runs, testNames, machineNames, caption } = props;
  return (
    <div className="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Test</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">Duration</th>
            <th scope="col" className="num">p50</th>
            <th scope="col" className="num">p95</th>
            <th scope="col" className="num">p99</th>
            <th scope="col" className="num">Errors</th>
            <th scope="col" className="num">Requests/s</th>
            <th scope="col" className="num">Requests</th>
            <th scope="col">Machines</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((task) => {
            const measured = task.status !== 'pending';
            return (
              <tr key={task.id}>
                <th scope="row">
                  <Link href={runHref(task)}>{task.public_id || task.id.slice(0, 8)}</Link>
                </th>
                <td>{testNames.get(task.test_id) ?? <span className="muted">deleted test</span>}</td>
                <td>
                  <StatusBadge status={task.status} />
                </td>
                <td>
                  <time dateTime={task.started_at ?? task.created_at} title={formatDateTime(task.started_at ?? task.created_at)}>
                    {formatRelativeTime(task.started_at ?? task.created_at)}
                  </time>
                </td>
                <td className="num">{formatDuration(durationBetween(task.started_at, task.finished_at))}</td>
                <td className="num">{measured ? formatMs(task.p50) : '–'}</td>
                <td className="num">{measured ? formatMs(task.p95) : '–'}</td>
                <td className="num">{measured ? formatMs(task.p99) : '–'}</td>
                <td className="num">{measured ? formatPercent(task.error_rate) : '–'}</td>
                <td className="num">{measured ? formatRate(task.requests_per_sec) : '–'}</td>
                <td className="num">{measured ? formatCount(task.total_requests) : '–'}</td>
                <td>{task.machine_ids.map((id) => machineNames.get(id) ?? id.slice(0, 8)).join(', ') || '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
