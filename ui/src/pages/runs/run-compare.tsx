/**
 * RunCompare: this run next to its test's baseline (the default when there is one) or another run of the test (kept in
 * ?compare=), through GET /tasks/{id}/compare: the figures with their changes, then per endpoint and a bar chart.
 */
import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { ApiError } from '../../api/api-error';
import { api, unwrap } from '../../api/client';
import { taskCompareQuery } from '../../api/queries';
import type { EndpointChange, Task, Test } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatChange, formatDateTime, formatMs, formatRate } from '../../components/common/formatters';
import type { Verdict } from './compare-figures';
import { EndpointBars } from './endpoint-bars';
import { endpointVerdict, figureRows, formatDelta, sameIsZero } from './server-compare';

function label(task: Task): string {
  return `${task.public_id || task.id.slice(0, 8)} · ${task.status} · ${formatDateTime(task.started_at ?? task.created_at)}`;
}

function Change({ change, verdict, delta }: { change: number | null | undefined; verdict: Verdict; delta: string }) {
  return (
    <td className={`num change-${verdict}`}>
      {formatChange(change)}
      {delta ? <span className="change-delta"> ({delta})</span> : null}
      {verdict !== 'same' ? <span className="change-word"> {verdict}</span> : null}
    </td>
  );
}

function EndpointRow({ row }: { row: EndpointChange }) {
  const { base, current, changes } = row;
  return (
    <tr>
      <th scope="row">{row.name}</th>
      <td className="num group-start">{base ? formatMs(base.p95) : <span className="muted">not in that run</span>}</td>
      <td className="num">{current ? formatMs(current.p95) : <span className="muted">not in this run</span>}</td>
      <Change change={sameIsZero(changes?.p95, base?.p95, current?.p95)} verdict={endpointVerdict(row, 'p95')} delta={formatDelta(base?.p95, current?.p95, formatMs)} />
      <td className="num group-start">{base ? formatRate(base.requests_per_sec) : '–'}</td>
      <td className="num">{current ? formatRate(current.requests_per_sec) : '–'}</td>
      <Change
        change={sameIsZero(changes?.requests_per_sec, base?.requests_per_sec, current?.requests_per_sec)}
        verdict={endpointVerdict(row, 'requests_per_sec')}
        delta={formatDelta(base?.requests_per_sec, current?.requests_per_sec, formatRate)}
      />
    </tr>
  );
}

export function RunCompare({ task, test, live }: { task: Task; test: Test | undefined; live: boolean }) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const runs = useQuery({
    queryKey: ['tasks', 'list', { test_id: task.test_id }, 'compare'],
    queryFn: () => unwrap(api.GET('/api/v1/tasks', { params: { query: { test_id: task.test_id, limit: 200 } } })),
  });
  const baselineId = test?.baseline_task_id ?? null;
  const hasBaseline = baselineId !== null && baselineId !== task.id;
  const candidates = (runs.data ?? []).filter((t) => t.id !== task.id && t.status !== 'pending');
  const asked = params.get('compare');
  const chosen = asked ?? (hasBaseline ? 'baseline' : '');
  const other = chosen === 'baseline' ? null : (candidates.find((t) => t.id === chosen || t.public_id === chosen) ?? null);
  const withRun = chosen === 'baseline' ? (hasBaseline ? 'baseline' : '') : (other?.id ?? '');
  const baselineRun = hasBaseline ? (runs.data ?? []).find((t) => t.id === baselineId) : undefined;

  const comparison = useQuery({ ...taskCompareQuery(task.id, withRun, live), enabled: withRun !== '', retry: false });
  const data = comparison.data;
  const noBaseline = withRun === 'baseline' && comparison.error instanceof ApiError && comparison.error.status === 404;

  const choose = (value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('compare', value || 'none');
        return next;
      },
      { replace: true },
    );

  const baseName = data ? (withRun === 'baseline' ? `the baseline (run ${data.base.public_id})` : `run ${data.base.public_id}`) : '';
  const baseHeader = data ? (withRun === 'baseline' ? `Baseline ${data.base.public_id}` : `Run ${data.base.public_id}`) : '';
  const selectValue = withRun === 'baseline' ? 'baseline' : (other?.id ?? '');

  return (
    <section aria-labelledby={`${id}-title`} className="panel">
      <h2 id={`${id}-title`}>Compare with another run</h2>
      <ErrorNotice error={runs.error} />
      {runs.data && candidates.length === 0 ? (
        <p className="muted">This test has no other run to compare with yet.</p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-select`}>Other run of this test</label>
          <select id={`${id}-select`} value={selectValue} onChange={(event) => choose(event.target.value)} disabled={!runs.data}>
            <option value="">Choose a run…</option>
            {hasBaseline ? <option value="baseline">Baseline{baselineRun ? ` · ${label(baselineRun)}` : ''}</option> : null}
            {candidates.map((t) => (
              <option key={t.id} value={t.id}>
                {label(t)}
              </option>
            ))}
          </select>
        </div>
      )}
      {noBaseline ? <p className="muted">This test has no baseline any more: choose a run.</p> : <ErrorNotice error={comparison.error} />}
      {withRun !== '' && comparison.isPending ? <p className="muted">Comparing…</p> : null}
      {data ? (
        <>
          <div className="table-wrap">
            <table>
              <caption>
                This run ({data.current.public_id}) against {baseName}; changes are relative to {baseName}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  <th scope="col" className="num">
                    {baseHeader}
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
                {figureRows(data.base, data.current, data.changes).map((row) => (
                  <tr key={row.figure.key}>
                    <th scope="row">{row.figure.label}</th>
                    <td className="num">{row.figure.format(row.base)}</td>
                    <td className="num">{row.figure.format(row.current)}</td>
                    <Change change={row.change} verdict={row.verdict} delta={formatDelta(row.base, row.current, row.figure.format)} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.endpoints.length > 0 ? (
            <>
              {/* Focusable: the table may scroll sideways on narrow screens. */}
              <div className="table-wrap compare-endpoints" tabIndex={0} role="group" aria-label="Per endpoint comparison">
                <table>
                  <caption>Per endpoint: p95 latency and requests/s of {baseName} and this run, with the change</caption>
                  <thead>
                    <tr>
                      <th scope="col" rowSpan={2}>
                        Endpoint
                      </th>
                      <th scope="colgroup" colSpan={3} className="group-start">
                        p95 latency
                      </th>
                      <th scope="colgroup" colSpan={3} className="group-start">
                        Requests/s
                      </th>
                    </tr>
                    <tr>
                      <th scope="col" className="num group-start">
                        {baseHeader}
                      </th>
                      <th scope="col" className="num">
                        This run
                      </th>
                      <th scope="col" className="num">
                        Change
                      </th>
                      <th scope="col" className="num group-start">
                        {baseHeader}
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
                    {data.endpoints.map((row) => (
                      <EndpointRow key={row.name} row={row} />
                    ))}
                  </tbody>
                </table>
              </div>
              <EndpointBars endpoints={data.endpoints} baseLabel={baseHeader} />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
