/**
 * The time-series chart's code, loaded on first need and then at hand: `useLazyChart()` answers the component once
 * loaded (null before), without Suspense. A Suspense boundary would show its fallback for the chart's first render and
 * then hold the reveal back (React throttles fallback reveals by ~300 ms): a dashboard whose answers had arrived sat
 * idle ~200 ms before its charts appeared.
 */
import { useEffect, useState } from 'react';
import type { TimeSeriesChart } from './time-series-chart';

type Chart = typeof TimeSeriesChart;

let loaded: Chart | null = null;
let loading: Promise<Chart> | null = null;

/** Starts loading the chart code (a page calls it while its queries run); resolves to the component. */
export function loadChart(): Promise<Chart> {
  loading ??= import('./time-series-chart').then((module) => (loaded = module.TimeSeriesChart));
  return loading;
}

export function useLazyChart(): Chart | null {
  // Functions in state go through an updater: useState(component) would call the component as an initialiser.
  const [chart, setChart] = useState<Chart | null>(() => loaded);
  useEffect(() => {
    if (chart) return;
    let live = true;
    void loadChart().then((component) => live && setChart(() => component));
    return () => {
      live = false;
    };
  }, [chart]);
  return chart;
}
