/**
 * The metrics of GET /metrics/query and GET /metrics/catalog, and how a step's value is computed from the step's
 * aggregate (the database sums counts per step and group): counts are summed, rates divide the sum by the step, and
 * percentiles are read from the step's MERGED histogram (percentiles of machines or intervals are never averaged).
 * A step holding a single stored interval reads the percentile stored with it, which is that histogram's own.
 */
import { mergedPercentile } from './histogram.ts';

/** One step of one group, as the database aggregates it. */
export interface StepAggregate {
  /** Stored intervals in the step. */
  points: number;
  requests: number;
  errors: number;
  /** Histogram totals (microseconds), for the mean and the maximum. */
  latencyCount: number;
  latencySum: number;
  latencyMax: number;
  /** The stored percentile of the metric, meaningful when `points` is 1. */
  stored: number | null;
  /** The step's histogram buckets (`EncodedHistogram.buckets`), when it holds more than one interval and the metric is a percentile. */
  buckets: string[] | null;
}

export interface QueryMetric {
  name: string;
  unit: string;
  description: string;
  /** The stored percentile column a single interval answers with, and whose histograms a merge needs. */
  percentile: 50 | 95 | 99 | null;
  /** Whether the step needs the histogram totals. */
  latency: boolean;
  /** The step's value; null: no value (no requests for a ratio or a latency). */
  value(step: StepAggregate, stepSeconds: number): number | null;
}

function percentileMetric(percent: 50 | 95 | 99, description: string): QueryMetric {
  return {
    name: `latency_p${percent}`,
    unit: 'ms',
    description,
    percentile: percent,
    latency: true,
    value: (step) => {
      if (step.latencyCount === 0) return null;
      if (step.points === 1 || !step.buckets) return step.stored;
      return mergedPercentile(step.buckets, percent, step.latencyMax);
    },
  };
}

const counting = (name: string, unit: string, description: string, value: QueryMetric['value']): QueryMetric => ({
  name,
  unit,
  description,
  percentile: null,
  latency: false,
  value,
});

export const queryMetrics: readonly QueryMetric[] = [
  counting('requests', 'requests', 'requests completed in each step', (s) => s.requests),
  counting('request_rate', 'requests/s', 'requests per second over each step', (s, step) => s.requests / step),
  counting('errors', 'errors', 'failed requests in each step', (s) => s.errors),
  counting('error_rate', 'errors/s', 'failed requests per second over each step', (s, step) => s.errors / step),
  counting('error_ratio', 'ratio', 'failed requests / requests in each step (0..1)', (s) => (s.requests === 0 ? null : s.errors / s.requests)),
  percentileMetric(50, 'median latency of the step, from the merged histogram'),
  percentileMetric(95, '95th percentile latency of the step, from the merged histogram'),
  percentileMetric(99, '99th percentile latency of the step, from the merged histogram'),
  {
    name: 'latency_mean',
    unit: 'ms',
    description: 'mean latency of the step',
    percentile: null,
    latency: true,
    value: (s) => (s.latencyCount === 0 ? null : s.latencySum / s.latencyCount / 1000),
  },
  {
    name: 'latency_max',
    unit: 'ms',
    description: 'highest latency of the step',
    percentile: null,
    latency: true,
    value: (s) => (s.latencyCount === 0 ? null : s.latencyMax / 1000),
  },
];

export const queryMetricNamed = (name: string) => queryMetrics.find((metric) => metric.name === name);
