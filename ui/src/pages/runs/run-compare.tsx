/**
 * RunCompare: pick another run of the same test (kept in ?compare=) and see the figures side by side with relative
 * changes, then per endpoint (p95 and requests) when both runs have endpoints.
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { taskEndpointsQuery } from '../../api/queries';
import type { Task } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatChange, formatCount, formatDateTime, formatMs } from '../../components/common/formatters';
import { compareEndpoints } from './compare-endpoints';
import { comparedFigures, figureOf, relativeChange, verdictOf, type Verdict } from './compare-figures';

function label(task: Task): string {
  return `${task.public_id || task.id.slice(0, 8)} · ${task.status} · ${formatDateTime(task.started_at ?? task.created_at)}`;
}

function Change({ change, verdict }: { change: number | null; verdict: Verdict }) {
  return (
    <td className={`num change-${verdict}`}>
      {formatChange(change)}
      {verdict !== 'same' ? <span className="change-word"> {verdict}</span> : null}
    </td>
  );
}

export function RunCompare({ task, live }: { task: Task; live: boolean }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const runs = useQuery({
    queryKey: ['tasks', 'list', { test_id: task.test_id }, 'compare'],
    queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query: { test_id: task.test_id, limit: 200 } } })),
  });
  const candidates = (runs.data ?? []).filter((t) => t.id !== task.id && t.status !== 'pending');
  const chosenId = params.get('compare') ?? '';
  const other = candidates.find((t) => t.id === chosenId || t.public_id === chosenId) ?? null;

  const currentEndpoints = useQuery({ ...taskEndpointsQuery(task.id, live), enabled: other !== null });
  const otherEndpoints = useQuery({ ...taskEndpointsQuery(other?.id ?? '', false), enabled: other !== null });
  const endpointRows =
    other && currentEndpoints.data?.length && otherEndpoints.data?.length ? compareEndpoints(otherEndpoints.data, currentEndpoints.data) : [];

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
        <>
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
                  return (
                    <tr key={figure.key}>
                      <th scope="row">{figure.label}</th>
                      <td className="num">{figure.format(base)}</td>
                      <td className="num">{figure.format(current)}</td>
                      <Change change={relativeChange(base, current)} verdict={verdictOf(figure, base, current)} />
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <ErrorNotice error={currentEndpoints.error ?? otherEndpoints.error} />
          {endpointRows.length > 0 ? (
            <div className="table-wrap compare-endpoints">
              <table>
                <caption>
                  Per endpoint: p95 latency and requests of run {other.public_id} and this run, with the change
                </caption>
                <thead>
                  <tr>
                    <th scope="col" rowSpan={2}>
                      Endpoint
                    </th>
                    <th scope="colgroup" colSpan={3} className="group-start">
                      p95 latency
                    </th>
                    <th scope="colgroup" colSpan={3} className="group-start">
                      Requests
                    </th>
                  </tr>
                  <tr>
                    <th scope="col" className="num group-start">
                      Run {other.public_id}
                    </th>
                    <th scope="col" className="num">
                      This run
                    </th>
                    <th scope="col" className="num">
                      Change
                    </th>
                    <th scope="col" className="num group-start">
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
                  {endpointRows.map((row) => (
                    <tr key={row.name}>
                      <th scope="row">{row.name}</th>
                      <td className="num group-start">{row.base ? formatMs(row.base.p95) : <span className="muted">not in that run</span>}</td>
                      <td className="num">{row.current ? formatMs(row.current.p95) : <span className="muted">not in this run</span>}</td>
                      <Change change={row.p95Change} verdict={row.p95Verdict} />
                      <td className="num group-start">{row.base ? formatCount(row.base.requests) : '–'}</td>
                      <td className="num">{row.current ? formatCount(row.current.requests) : '–'}</td>
                      <Change change={row.requestsChange} verdict="same" />
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
