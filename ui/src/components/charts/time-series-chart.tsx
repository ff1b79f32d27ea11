/**
 * TimeSeriesChart({ title, unit, series, times, height?, showPoints? }): a uPlot line chart that follows its container's
 * width and the theme's colours, updates its data in place, and tells screen readers its last, lowest and highest values.
 * Its legend names each series; pressing an entry hides or shows that series (uPlot's own legend, marked `u-off`).
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './charts.css';
import { formatClockTime, formatFigure } from '../common/formatters';
import { lineWidthFor } from './line-width';
import { timeRange } from './time-range';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
}

// Ten colours (theme.css), enough for a top-10 chart without repeats; the fallbacks are the light theme's.
const PALETTE = Array.from({ length: 10 }, (_, i) => `--chart-${i + 1}`);
const FALLBACK = ['#0b57c2', '#c24e00', '#7b2cbf', '#126b2f', '#a3367a', '#00707a', '#7a6400', '#4f55a8', '#b3202a', '#4a5361'];
/** Series past the first four are dashed as well, so that a line stays told apart without telling colours apart. */
const dashOf = (index: number) => (index >= 4 ? [6, 3] : undefined);


/** Bumps whenever the light/dark theme changes (the toggle's data-theme, or the system preference). */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

function summaryOf(values: (number | null)[]): { last: number | null; min: number | null; max: number | null } {
  let last: number | null = null;
  let min: number | null = null;
  let max: number | null = null;
  // An index loop: an hour at 1 s is 3,600 values a series, summed up on a cold page before its chart shows.
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined || Number.isNaN(value)) continue;
    last = value;
    min = min === null ? value : Math.min(min, value);
    max = max === null ? value : Math.max(max, value);
  }
  return { last, min, max };
}

/** The theme's colours a chart draws with. */
interface ChartLook {
  text: string;
  grid: string;
  strokes: string[];
}

/** The look of a chart in `element`, read from one computed style (each getComputedStyle call may update the page's styles). */
function lookOf(element: Element, seriesCount: number): ChartLook {
  const style = getComputedStyle(element);
  return {
    text: cssVariable(style, '--text-muted', '#4a5361'),
    grid: cssVariable(style, '--border', '#c9d0da'),
    strokes: Array.from({ length: seriesCount }, (_, index) => cssVariable(style, PALETTE[index % PALETTE.length]!, FALLBACK[index % FALLBACK.length]!)),
  };
}

function chartOptions(
  look: ChartLook,
  shape: { labels: string[]; unit: string; width: number; height: number; lineWidth: number; showPoints: boolean },
): uPlot.Options {
  const { labels, unit, width, height, lineWidth, showPoints } = shape;
  const axis: uPlot.Axis = { stroke: look.text, grid: { stroke: look.grid, width: 1 }, ticks: { stroke: look.grid, width: 1 } };
  return {
    width,
    height,
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true, range: (_u, min, max) => timeRange(min, max) as uPlot.Range.MinMax } },
    axes: [
      { ...axis },
      {
        ...axis,
        label: unit,
        size: 60,
        values: (_u, splits) => splits.map((value) => formatFigure(value)),
      },
    ],
    series: [
      { label: 'time', value: (_u, value) => (value === null ? '–' : formatClockTime(value)) },
      ...labels.map((label, index) => ({
        label,
        stroke: look.strokes[index]!,
        width: lineWidth,
        dash: dashOf(index),
        points: { show: showPoints, size: 6 },
        spanGaps: false,
        value: (_u: uPlot, value: number | null) => (value === null ? '–' : `${formatFigure(value)} ${unit}`),
      })),
    ],
  };
}

export function TimeSeriesChart(props: {
  title: string;
  unit: string;
  series: ChartSeries[];
  times: number[];
  height?: number;
  /** Dots on the values: for a few points, where a lone point has no line to show it. */
  showPoints?: boolean;
}) {
  const { title, unit, series, times, height = 220, showPoints = false } = props;
  const id = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const themeVersion = useThemeVersion();

  const data = useMemo(() => [times, ...series.map((s) => s.values)] as uPlot.AlignedData, [times, series]);
  const dataRef = useRef(data);
  dataRef.current = data;
  /** The data the chart shows now. */
  const drawnRef = useRef<uPlot.AlignedData | null>(null);
  // What needs a new chart: anything but the data, or a line width (lineWidthFor) that no longer fits its points.
  const shape = JSON.stringify([title, unit, height, series.map((s) => s.label), showPoints]);
  const [rebuild, setRebuild] = useState(0);
  const lineWidthRef = useRef(2);

  // A layout effect: the chart is made and drawn before the browser paints the commit that brought its data, in the
  // same frame (a passive effect would make it a frame later, and a dashboard's 8 answers then cost 16 frames).
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const labels = JSON.parse(shape)[3] as string[];
    const width = Math.max(200, container.clientWidth);
    const lineWidth = lineWidthFor(dataRef.current[0].length, width);
    lineWidthRef.current = lineWidth;
    const options = chartOptions(lookOf(container, labels.length), { labels, unit, width, height, lineWidth, showPoints });
    const plot = new uPlot(options, dataRef.current, container);
    plotRef.current = plot;
    drawnRef.current = dataRef.current;
    return () => {
      plot.destroy();
      plotRef.current = null;
    };
  }, [shape, height, unit, showPoints, themeVersion, rebuild]);

  // New data: in place, keeping the chart (not the data a new chart was just drawn with: that would draw it twice),
  // unless its points grew past what its line width suits: then a new chart.
  useLayoutEffect(() => {
    if (drawnRef.current === data) return;
    const plot = plotRef.current;
    if (plot && lineWidthFor(data[0].length, plot.width) !== lineWidthRef.current) {
      setRebuild((n) => n + 1);
      return;
    }
    drawnRef.current = data;
    plot?.setData(data);
  }, [data]);

  // Follow the container's width.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const width = Math.max(200, container.clientWidth);
        const plot = plotRef.current;
        if (!plot || plot.width === width) return;
        if (lineWidthFor(dataRef.current[0].length, width) !== lineWidthRef.current) setRebuild((n) => n + 1);
        else plot.setSize({ width, height });
      });
    });
    observer.observe(container);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [height]);

  const summaries = useMemo(() => series.map((s) => ({ label: s.label, ...summaryOf(s.values) })), [series]);
  const lastTime = times.length ? formatClockTime(times[times.length - 1]!) : null;

  return (
    <figure className="time-series-chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="time-series-chart-title">
        {title} <span className="muted">({unit})</span>
      </figcaption>
      <div ref={containerRef} className="time-series-chart-plot" aria-hidden="true" />
      {/* The data for screen readers. Wrapped: a table keeps its content's width whatever its own width says, so hidden
          by itself it would still widen a narrow page. */}
      <div className="visually-hidden">
        <table>
          <caption>
            {title} in {unit}
            {lastTime ? `, ${times.length} points up to ${lastTime}` : ', no data yet'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col">Last</th>
              <th scope="col">Lowest</th>
              <th scope="col">Highest</th>
            </tr>
          </thead>
          <tbody>
            {summaries.map((s) => (
              <tr key={s.label}>
                <th scope="row">{s.label}</th>
                <td>{formatFigure(s.last)}</td>
                <td>{formatFigure(s.min)}</td>
                <td>{formatFigure(s.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

export default TimeSeriesChart;
