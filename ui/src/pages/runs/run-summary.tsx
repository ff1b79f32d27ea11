/** RunSummary: a run's status, why it waits, its error, its timing and its machines. */
import type { Task } from '../../api/types';
import { StatusBadge } from '../../components/common/status-badge';
import { durationBetween, formatDateTime, formatDuration } from '../../components/common/formatters';

export function RunSummary({ task, machineNames }: { task: Task; machineNames: Map<string, string> }) {
  return (
    <section aria-labelledby="run-summary" className="panel">
      <h2 id="run-summary" className="visually-hidden">
        Summary
      </h2>
      <dl className="summary-list">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={task.status} />
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(task.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatDateTime(task.started_at)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{formatDateTime(task.finished_at)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(durationBetween(task.started_at, task.finished_at))}</dd>
        </div>
        <div>
          <dt>Machines</dt>
          <dd>
            {task.machine_ids.length === 0
              ? 'none yet'
              : task.machine_ids.map((id) => machineNames.get(id) ?? id).join(', ')}
          </dd>
        </div>
      </dl>
      {task.status === 'pending' && task.pending_reason ? (
        <div className="notice notice-warning" role="status">
          <p>
            <strong>Waiting: </strong>
            {task.pending_reason}
          </p>
        </div>
      ) : null}
      {task.error ? (
        <div className="notice notice-error" role="alert">
          <p>
            <strong>Error: </strong>
            {task.error}
          </p>
        </div>
      ) : null}
    </section>
  );
}
