/**
 * DashboardPanel: one panel of a dashboard, fetched and drawn only once it is near the viewport (IntersectionObserver),
 * its chart code loaded lazily (useLazyChart, without Suspense); line, area, bar and heatmap panels are drawn by
 * TimeSeriesChart, `stat` as the last value of each series, `table` as a table of last, lowest and highest values.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useQuery } from '@tanstack/react-query';
import { loadChart, useLazyChart } from '../../components/charts/use-lazy-chart';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatFigure } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { metricQuery } from './dashboard-queries';
import { lastValuesOf, queryText, requestOf, seriesLabelsOf, unitOf, type MetricQueryResult, type NameOf, type TimeRange } from './metric-query';
import type { Panel } from './panel-draft';

/** Starts loading the chart code while the panels' queries run, so it is there when their data arrives. */
export function preloadChart(): void {
  void loadChart();
}

/** How far outside the viewport a panel starts loading. */
export const NEAR_MARGIN_PX = 300;

/** Panels a page shows near its first viewport: the grid's columns (30rem at least) by the rows within the load margin. */
export function panelsNearFirstViewport(): number {
  const columns = Math.max(1, Math.floor(window.innerWidth / 500));
  const rows = Math.ceil((window.innerHeight + NEAR_MARGIN_PX) / 280);
  return Math.max(2, columns * rows);
}

/**
 * Whether the element has come near the viewport (stays true once it has). `eager`: near from the start (a panel of
 * the first viewport, whose query the page's prefetch sent already), so no layout is forced to find out.
 */
function useNearViewport<T extends Element>(eager: boolean): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(eager || typeof IntersectionObserver === 'undefined');
  // A panel already near the viewport when it is first laid out starts its query now, before the first paint: the
  // observer would only tell it a frame later.
  useLayoutEffect(() => {
    if (near) return;
    const box = ref.current?.getBoundingClientRect();
    if (box && box.top < window.innerHeight + NEAR_MARGIN_PX && box.bottom > -NEAR_MARGIN_PX) setNear(true);
  }, []);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `${NEAR_MARGIN_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

function PanelBody({ panel, result, nameOf }: { panel: Panel; result: MetricQueryResult; nameOf: NameOf }) {
  const unit = unitOf(result);
  // The series rebuilt only when the answer (already aligned by the API) or a label changes: the chart then redraws
  // only for new data (the page re-renders as the names of runs, tests and machines arrive).
  const labels = seriesLabelsOf(result, nameOf);
  const labelKey = labels.join('\u0000');
  // labels are compared by their text (labelKey), not by the array made on each render.
  const data = useMemo(() => ({ times: result.times, series: result.series.map((s, i) => ({ label: labels[i]!, values: s.values })) }), [result, labelKey]);
  const TimeSeriesChart = useLazyChart();
  if (result.series.length === 0 || result.times.length === 0) {
    return <p className="muted">No data in this time range. Pick a longer range or a run&apos;s span above, or check the panel&apos;s filters.</p>;
  }
  if (panel.chart === 'stat') {
    return (
      <dl className="figures dashboard-stat">
        {lastValuesOf(result, nameOf).map((row) => (
          <div className="figure" key={row.label}>
            <dt>{row.label}</dt>
            <dd>
              {formatFigure(row.value)} <span className="muted">{unit}</span>
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  if (panel.chart === 'table') {
    return (
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">
            {panel.title} in {unit}
          </caption>
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col" className="num">
                Last
              </th>
              <th scope="col" className="num">
                Lowest
              </th>
              <th scope="col" className="num">
                Highest
              </th>
            </tr>
          </thead>
          <tbody>
            {data.series.map((s) => {
              const values = s.values.filter((v): v is number => v !== null);
              return (
                <tr key={s.label}>
                  <th scope="row">{s.label}</th>
                  <td className="num">{formatFigure(values[values.length - 1] ?? null)}</td>
                  <td className="num">{formatFigure(values.length ? Math.min(...values) : null)}</td>
                  <td className="num">{formatFigure(values.length ? Math.max(...values) : null)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }
  if (!TimeSeriesChart) return <Loading label="Loading the chart…" />;
  return <TimeSeriesChart title={panel.title} unit={unit} times={data.times} series={data.series} height={200} />;
}

export function DashboardPanel(props: {
  panel: Panel;
  range: TimeRange | null;
  refetchMs: number | false;
  nameOf: NameOf;
  actions: ReactNode;
  /** Near the viewport from the start (see useNearViewport). */
  eager?: boolean;
}) {
  const { panel, range, refetchMs, nameOf, actions, eager = false } = props;
  const id = useId();
  const [ref, near] = useNearViewport<HTMLElement>(eager);
  const request = range ? requestOf(panel.query, range) : '';
  const result = useQuery({ ...metricQuery(request, refetchMs), enabled: near && request !== '' });

  return (
    <section ref={ref} className="dashboard-panel" aria-labelledby={`${id}-title`}>
      <header className="dashboard-panel-header">
        <h2 id={`${id}-title`}>{panel.title}</h2>
        <div className="actions">{actions}</div>
      </header>
      <p className="dashboard-panel-query muted">
        <code>{queryText(panel.query)}</code>
        {panel.chart !== 'line' && panel.chart !== 'stat' && panel.chart !== 'table' ? ` · ${panel.chart} panel, drawn as lines` : null}
      </p>
      {!range ? (
        <p className="muted">Pick a time range above.</p>
      ) : !near || result.isPending ? (
        <Loading label={`Loading ${panel.title}…`} />
      ) : result.error && !result.data ? (
        <ErrorNotice error={result.error} title="This panel's query failed" />
      ) : result.data ? (
        <PanelBody panel={panel} result={result.data} nameOf={nameOf} />
      ) : null}
    </section>
  );
}
