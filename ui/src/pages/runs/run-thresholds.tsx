/**
 * RunVerdict({ task }): the run's verdict, prominently, with how many thresholds held.
 * RunThresholds({ task, pending }): each threshold with its limit, the figure it was checked on and whether it held;
 * while the run is live, the test's thresholds that will be checked (`pending`).
 */
import { useId } from 'react';
import type { Task, Threshold } from '../../api/types';
import { describeThreshold, formatActual, formatLimit, metricLabel } from '../tests/threshold-model';
import { VerdictBadge } from './verdict-badge';

export function RunVerdict({ task }: { task: Task }) {
  if (task.verdict !== 'passed' && task.verdict !== 'failed') return null;
  const results = task.threshold_results ?? [];
  const held = results.filter((r) => r.ok).length;
  return (
    <p className={`verdict-banner verdict-${task.verdict}`}>
      <strong className="verdict-label">Verdict:</strong> <VerdictBadge verdict={task.verdict} />{' '}
      <span>
        {held} of {results.length} threshold{results.length === 1 ? '' : 's'} held.{' '}
        <a href="#run-thresholds">See the thresholds</a>
      </span>
    </p>
  );
}

export function RunThresholds({ task, pending }: { task: Task; pending: Threshold[] }) {
  const id = useId();
  const results = task.threshold_results ?? [];
  if (results.length === 0 && pending.length === 0) return null;
  return (
    <section aria-labelledby="run-thresholds" className="panel">
      <h2 id="run-thresholds" tabIndex={-1}>
        Thresholds
      </h2>
      {results.length === 0 ? (
        <>
          <p className="muted" id={`${id}-pending`}>
            Checked when the run ends (a threshold that stops the run is also checked while it runs). The test has these:
          </p>
          <ul className="threshold-list">
            {pending.map((threshold, index) => (
              <li key={index}>
                {describeThreshold(threshold)}
                {threshold.abort ? <span className="muted"> (stops the run when it fails)</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <div className="table-wrap">
          <table className="thresholds-table">
            <caption className="visually-hidden">Each threshold with the figure it was checked on</caption>
            <thead>
              <tr>
                <th scope="col">Figure</th>
                <th scope="col">Endpoint</th>
                <th scope="col" className="num">
                  Limit
                </th>
                <th scope="col" className="num">
                  Actual
                </th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {results.map((result, index) => (
                <tr key={index}>
                  <th scope="row">
                    {metricLabel(result.metric)}
                    {result.abort ? <span className="muted"> (stops the run)</span> : null}
                  </th>
                  <td>{result.endpoint ?? <span className="muted">all requests</span>}</td>
                  <td className="num">{formatLimit(result)}</td>
                  <td className="num">{result.actual === null ? <span className="muted">not measured</span> : formatActual(result.metric, result.actual)}</td>
                  <td>
                    <span className={`badge ${result.ok ? 'badge-success' : 'badge-danger'}`}>
                      <span aria-hidden="true">{result.ok ? '✓' : '✗'}</span>
                      {result.ok ? 'held' : 'failed'}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
