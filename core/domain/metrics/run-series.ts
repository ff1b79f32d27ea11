/**
 * The stored run time series as queries see them: one series per run and machine (labels run, machine, test), made of
 * per-interval points (requests, errors and the interval's latency histogram), sorted by the interval's end.
 */
import type { EncodedHistogram } from './histogram.ts';

/** The labels every run point carries (the names are the API's). */
export const runLabelNames = ['run', 'machine', 'test'] as const;
export type RunLabelName = (typeof runLabelNames)[number];
export type RunLabels = Record<RunLabelName, string>;

export interface RunPoint {
  /** End of the interval, unix seconds. */
  t: number;
  requests: number;
  errors: number;
  /** Loaded only when the query needs latencies. */
  histogram: EncodedHistogram | null;
}

export interface RunSeries {
  labels: RunLabels;
  points: RunPoint[];
  /** Requests and errors of this series before the first loaded point (the base of cumulative counters). */
  requestsBefore: number;
  errorsBefore: number;
}

export const seriesKey = (labels: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.keys(labels).sort().map((name) => [name, labels[name]]));
