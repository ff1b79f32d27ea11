/**
 * The metrics of GET /metrics/query and GET /metrics/catalog, and how a step's value is computed from the points in it:
 * counts are summed, rates divide the sum by the step, and percentiles are read from the step's MERGED histogram
 * (percentiles of machines or intervals are never averaged).
 */
import { LatencyHistogram } from './histogram.ts';
import type { RunPoint } from './run-series.ts';

export interface QueryMetric {
  name: string;
  unit: string;
  description: string;
  /** Whether the value needs the points' histograms. */
  latency: boolean;
  /** The step's value from its points; null: no value (no requests for a ratio). */
  value(points: readonly RunPoint[], stepSeconds: number): number | null;
}

const sum = (points: readonly RunPoint[], pick: (p: RunPoint) => number) => points.reduce((total, p) => total + pick(p), 0);

function merged(points: readonly RunPoint[]): LatencyHistogram {
  const histogram = new LatencyHistogram();
  for (const point of points) if (point.histogram) histogram.merge(LatencyHistogram.decode(point.histogram));
  return histogram;
}

const latency = (name: string, description: string, read: (h: LatencyHistogram) => number): QueryMetric => ({
  name,
  unit: 'ms',
  description,
  latency: true,
  value: (points) => {
    const histogram = merged(points);
    return histogram.count === 0 ? null : read(histogram);
  },
});

export const queryMetrics: readonly QueryMetric[] = [
  { name: 'requests', unit: 'requests', description: 'requests completed in each step', latency: false, value: (ps) => sum(ps, (p) => p.requests) },
  { name: 'request_rate', unit: 'requests/s', description: 'requests per second over each step', latency: false, value: (ps, step) => sum(ps, (p) => p.requests) / step },
  { name: 'errors', unit: 'errors', description: 'failed requests in each step', latency: false, value: (ps) => sum(ps, (p) => p.errors) },
  { name: 'error_rate', unit: 'errors/s', description: 'failed requests per second over each step', latency: false, value: (ps, step) => sum(ps, (p) => p.errors) / step },
  {
    name: 'error_ratio',
    unit: 'ratio',
    description: 'failed requests / requests in each step (0..1)',
    latency: false,
    value: (ps) => {
      const requests = sum(ps, (p) => p.requests);
      return requests === 0 ? null : sum(ps, (p) => p.errors) / requests;
    },
  },
  latency('latency_p50', 'median latency of the step, from the merged histogram', (h) => h.percentile(50)),
  latency('latency_p95', '95th percentile latency of the step, from the merged histogram', (h) => h.percentile(95)),
  latency('latency_p99', '99th percentile latency of the step, from the merged histogram', (h) => h.percentile(99)),
  latency('latency_mean', 'mean latency of the step', (h) => h.mean),
  latency('latency_max', 'highest latency of the step', (h) => h.max),
];

export const queryMetricNamed = (name: string) => queryMetrics.find((metric) => metric.name === name);
