/** RunCompare: pick another run of the same test (kept in ?compare=) and see the figures side by side with relative changes. */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import type { Task } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatChange, formatDateTime } from '../../components/common/formatters';
import { comparedFigures, figureOf, relativeChange, verdictOf } from './compare-figures';

function label(task: Task): string {
  return `${task.public_id || task.id.slice(0, 8)} · ${task.status} · ${formatDateTime(task.started_at ?? task.created_at)}`;
}

export function RunCompare({ task }: { task: Task }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const runs = useQuery({
    queryKey: ['tasks', 'list', 'compare'],
    queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query: { limit: 500 } } })),
  });
  const candidates = (runs.data ?? []).filter((t) => t.test_id === task.test_id && t.id !== task.id && t.status !== 'pending');
  const chosenId = params.get('compare') ?? '';
  const other = candidates.find((t) => t.id === chosenId || t.public_id === chosenId) ?? null;

  const choose = (value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set('compare', value);
        else next.delete('compare');
        return next;
      },
      { replace: true },
    );

  return (
    <section aria-labelledby={`${id}-title`} className="panel">
      <h2 id={`${id}-title`}>Compare with another run</h2>
      <ErrorNotice error={runs.error} />
      {runs.data && candidates.length === 0 ? (
        <p className="muted">This test has no other run to compare with yet.</p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-select`}>Other run of this test</label>
          <select id={`${id}-select`} value={other?.id ?? ''} onChange={(event) => choose(event.target.value)} disabled={!runs.data}>
            <option value="">Choose a run…</option>
            {candidates.map((t) => (
              <option key={t.id} value={t.id}>
                {label(t)}
              </option>
            ))}
          </select>
        </div>
      )}
      {other ? (
        <div className="table-wrap">
          <table>
            <caption>
              This run ({task.public_id}) against run {other.public_id}; changes are relative to run {other.public_id}
            </caption>
            <thead>
              <tr>
                <th scope="col">Figure</th>
                <th scope="col" className="num">
                  Run {other.public_id}
                </th>
                <th scope="col" className="num">
                  This run
                </th>
                <th scope="col" className="num">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {comparedFigures.map((figure) => {
                const base = figureOf(other, figure);
                const current = figureOf(task, figure);
                const verdict = verdictOf(figure, base, current);
                return (
                  <tr key={figure.key}>
                    <th scope="row">{figure.label}</th>
                    <td className="num">{figure.format(base)}</td>
                    <td className="num">{figure.format(current)}</td>
                    <td className={`num change-${verdict}`}>
                      {formatChange(relativeChange(base, current))}
                      {verdict !== 'same' ? <span className="change-word"> {verdict}</span> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
