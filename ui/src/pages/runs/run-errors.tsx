/** RunErrors({ taskId, live }): the run's errors grouped by endpoint, kind and code (GET /tasks/{id}/errors), most frequent first; refetched while live. */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { taskErrorsQuery } from '../../api/queries';
import type { TaskErrorGroup } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatCount } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';

const kindLabel: Record<TaskErrorGroup['kind'], string> = {
  status: 'HTTP status',
  network: 'network',
  check: 'failed check',
  script: 'script error',
};

export function RunErrors({ taskId, live }: { taskId: string; live: boolean }) {
  const id = useId();
  const errors = useQuery({ ...taskErrorsQuery(taskId, live), refetchInterval: live ? 3000 : false });

  let body;
  if (errors.isPending) body = <Loading label="Loading the errors…" />;
  else if (!errors.data) body = <ErrorNotice error={errors.error} />;
  else if (errors.data.length === 0) body = <p className="muted">{live ? 'No errors so far.' : 'No errors: every request succeeded.'}</p>;
  else
    body = (
      <div className="table-wrap">
        <table className="errors-table">
          <caption>Errors by endpoint, kind and code, most frequent first</caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Kind</th>
              <th scope="col">Code</th>
              <th scope="col">Sample message</th>
              <th scope="col" className="num">
                Count
              </th>
            </tr>
          </thead>
          <tbody>
            {errors.data.map((group) => (
              <tr key={`${group.endpoint}\u0000${group.kind}\u0000${group.code}`}>
                <th scope="row">{group.endpoint || <span className="muted">unnamed</span>}</th>
                <td>{kindLabel[group.kind] ?? group.kind}</td>
                <td>
                  <code>{group.code || '–'}</code>
                </td>
                <td className="error-message">{group.message}</td>
                <td className="num">{formatCount(group.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Errors</h2>
      {body}
    </section>
  );
}
