/**
 * RunsTable: runs with status and verdict, test, timing, figures (p50/p95/p99, error rate, requests/s, total) and
 * machines. Less important columns hide as the table's container narrows (.priority-2, .priority-3), and it scrolls
 * sideways inside its frame when it still does not fit.
 */
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
import { VerdictBadge } from './verdict-badge';

export function runHref(task: Pick<Task, 'id' | 'public_id'>): string {
  return `/runs/${encodeURIComponent(task.public_id || task.id)}`;
}

export function RunsTable(props: { runs: Task[]; testNames: Map<string, string>; machineNames: Map<string, string>; caption: string; busy?: boolean }) {
  const { runs, testNames, machineNames, caption, busy = false } = props;
  return (
    <div className="table-wrap responsive-table">
      <table className="runs-table" aria-busy={busy || undefined}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Test</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
            <th scope="col" className="num priority-3">Duration</th>
            <th scope="col" className="num priority-3">p50</th>
            <th scope="col" className="num">p95</th>
            <th scope="col" className="num priority-2">p99</th>
            <th scope="col" className="num">Errors</th>
            <th scope="col" className="num priority-2">Requests/s</th>
            <th scope="col" className="num priority-2">Requests</th>
            <th scope="col" className="priority-3">Machines</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((task) => {
            const measured = task.status !== 'pending';
            const when = task.started_at ?? task.created_at;
            return (
              <tr key={task.id}>
                <th scope="row" className="run-id">
                  <Link href={runHref(task)}>{task.public_id || task.id.slice(0, 8)}</Link>
                </th>
                <td>{testNames.get(task.test_id) ?? <span className="muted">deleted test</span>}</td>
                <td>
                  <span className="badges">
                    <StatusBadge status={task.status} />
                    <VerdictBadge verdict={task.verdict} />
                  </span>
                </td>
                <td className="nowrap">
                  <time dateTime={when} title={formatDateTime(when)}>
                    {formatRelativeTime(when)}
                  </time>
                </td>
                <td className="num priority-3">{formatDuration(durationBetween(task.started_at, task.finished_at))}</td>
                <td className="num priority-3">{measured ? formatMs(task.p50) : '–'}</td>
                <td className="num">{measured ? formatMs(task.p95) : '–'}</td>
                <td className="num priority-2">{measured ? formatMs(task.p99) : '–'}</td>
                <td className="num">{measured ? formatPercent(task.error_rate) : '–'}</td>
                <td className="num priority-2">{measured ? formatRate(task.requests_per_sec) : '–'}</td>
                <td className="num priority-2">{measured ? formatCount(task.total_requests) : '–'}</td>
                <td className="priority-3">{task.machine_ids.map((id) => machineNames.get(id) ?? id.slice(0, 8)).join(', ') || '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
