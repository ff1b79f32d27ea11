/** EndpointTimelineChart({ rows, live }): the top 10 endpoints by requests per minute as a uPlot chart (one series each, the legend toggles them), requests/s, p95 or error rate on choice. */
import { useId, useMemo, useState } from 'react';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { timelineChart, timelineMetrics, topEndpointsByRequests, type EndpointWithTimeline, type TimelineMetric } from './endpoint-timeline';

const TOP = 10;

export default function EndpointTimelineChart({ rows, live }: { rows: readonly EndpointWithTimeline[]; live: boolean }) {
  const id = useId();
  const [metric, setMetric] = useState<TimelineMetric>('requests_per_sec');
  const chosen = timelineMetrics.find((m) => m.value === metric)!;
  const top = useMemo(() => topEndpointsByRequests(rows, TOP), [rows]);
  const data = useMemo(() => timelineChart(top, metric), [top, metric]);

  if (data.times.length === 0) {
    return (
      <p className="muted">
        {live ? 'The chart per minute fills in as the run goes.' : 'This run has no figures per minute for its endpoints.'}
      </p>
    );
  }
  return (
    <div className="endpoint-timeline">
      <div className="field endpoint-timeline-metric">
        <label htmlFor={`${id}-metric`}>Chart the top endpoints by</label>
        <select id={`${id}-metric`} value={metric} onChange={(event) => setMetric(event.target.value as TimelineMetric)}>
          {timelineMetrics.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </div>
      <TimeSeriesChart
        // "Top …" first: the run's own charts above are named "Requests per second", "Error rate" and so on.
        title={`Top ${top.length} ${top.length === 1 ? 'endpoint' : 'endpoints'} by requests: ${chosen.label.toLowerCase()} per minute`}
        unit={chosen.unit}
        times={data.times}
        series={data.series}
        height={240}
        // A short run has a minute or two: dots, or a lone minute would draw nothing.
        showPoints={data.times.length < 4}
      />
      <p className="field-hint">Press a name in the chart&apos;s legend to hide or show its line.</p>
    </div>
  );
}
