/** EndpointBars({ endpoints, baseLabel }): a bar list of the top 10 endpoints by p95 or requests, the base run's bar above this run's. */
import { useId, useState } from 'react';
import type { EndpointChange } from '../../api/types';
import { formatCount, formatMs } from '../../components/common/formatters';
import { barWidth, topEndpoints, type EndpointMetric } from './server-compare';

const METRICS: { value: EndpointMetric; label: string; format: (value: number) => string }[] = [
  { value: 'p95', label: 'p95 latency', format: formatMs },
  { value: 'requests', label: 'Requests', format: formatCount },
];

export function EndpointBars({ endpoints, baseLabel }: { endpoints: readonly EndpointChange[]; baseLabel: string }) {
  const id = useId();
  const [metric, setMetric] = useState<EndpointMetric>('p95');
  const chosen = METRICS.find((m) => m.value === metric)!;
  const rows = topEndpoints(endpoints, metric, 10);
  const max = Math.max(0, ...rows.flatMap((row) => [row.base ?? 0, row.current ?? 0]));
  return (
    <figure className="endpoint-bars" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>
        Top {rows.length} endpoints by {chosen.label.toLowerCase()}: {baseLabel} and this run
      </figcaption>
      <fieldset className="segmented">
        <legend className="visually-hidden">Chart the endpoints by</legend>
        {METRICS.map((m) => (
          <label key={m.value}>
            <input type="radio" name={`${id}-metric`} value={m.value} checked={metric === m.value} onChange={() => setMetric(m.value)} />
            {m.label}
          </label>
        ))}
      </fieldset>
      <p className="endpoint-bars-key" aria-hidden="true">
        <span className="bar-swatch bar-base" /> {baseLabel} <span className="bar-swatch bar-current" /> This run
      </p>
      <dl className="endpoint-bars-list">
        {rows.map((row) => (
          <div key={row.name} className="endpoint-bars-row">
            <dt>{row.name}</dt>
            <dd>
              <span className="bar-line">
                <span className="bar bar-base" style={{ width: `${barWidth(row.base, max)}%` }} />
                <span className="bar-value">
                  {baseLabel}: {row.base === null ? 'none' : chosen.format(row.base)}
                </span>
              </span>
              <span className="bar-line">
                <span className="bar bar-current" style={{ width: `${barWidth(row.current, max)}%` }} />
                <span className="bar-value">This run: {row.current === null ? 'none' : chosen.format(row.current)}</span>
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </figure>
  );
}
