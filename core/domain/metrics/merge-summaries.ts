/** Merges per-machine run summaries into the task's figures: percentiles from the merged histogram, never averaged. */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { LatencyHistogram } from './histogram.ts';

export interface RunFigures {
  p50: number;
  p95: number;
  p99: number;
  errorRate: number;
  requestsPerSec: number;
  totalRequests: number;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

export function mergeSummaries(summaries: readonly MetricSnapshot[]): RunFigures {
  const merged = new LatencyHistogram();
  let requests = 0;
  let errors = 0;
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const summary of summaries) {
    merged.merge(LatencyHistogram.decode(summary.histogram));
    requests += summary.requests;
    errors += summary.errors;
    if (summary.requests > 0 || summary.histogram.count > 0) {
      start = Math.min(start, summary.startedAt);
      end = Math.max(end, summary.endedAt);
    }
  }
  // Requests over the measured window: from the first machine's first sample to the last machine's last.
  const seconds = Number.isFinite(start) && end > start ? (end - start) / 1000 : 0;
  return {
    p50: round(merged.percentile(50)),
    p95: round(merged.percentile(95)),
    p99: round(merged.percentile(99)),
    errorRate: requests > 0 ? round(Math.min(1, errors / requests), 6) : 0,
    requestsPerSec: seconds > 0 ? round(requests / seconds, 2) : 0,
    totalRequests: requests,
  };
}
