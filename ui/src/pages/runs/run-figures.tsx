/** RunFigures: a run's final (or so far) figures: p50, p95, p99, error rate, requests/s and total requests. */
import type { Task } from '../../api/types';
import { formatCount, formatMs, formatPercent, formatRate } from '../../components/common/formatters';

export function RunFigures({ task }: { task: Task }) {
  const measured = task.status !== 'pending';
  const figures: [string, string][] = [
    ['p50 latency', formatMs(task.p50)],
    ['p95 latency', formatMs(task.p95)],
    ['p99 latency', formatMs(task.p99)],
    ['Error rate', formatPercent(task.error_rate)],
    ['Requests/s', formatRate(task.requests_per_sec)],
    ['Requests', formatCount(task.total_requests)],
  ];
  return (
    <section aria-labelledby="run-figures">
      <h2 id="run-figures">{task.status === 'running' ? 'Figures so far' : 'Figures'}</h2>
      {measured ? (
        <dl className="figures">
          {figures.map(([label, value]) => (
            <div className="figure" key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">The figures appear once the run starts.</p>
      )}
    </section>
  );
}
