/**
 * Checks an agent's metric snapshot completely before anything of it is stored: a bad report is refused with a reason.
 * Histograms are checked as decoding them would check them (inspectEncoded), without building them: a snapshot of a
 * test of 50 steps carries 51 of them a second.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { inspectEncoded } from './histogram.ts';

/** Null when the snapshot is sound; else why it is not, in one line. */
export function snapshotProblem(snapshot: MetricSnapshot): string | null {
  const { requests, errors, startedAt, endedAt, histogram } = snapshot;
  if (![requests, errors, startedAt, endedAt, histogram.min, histogram.max, histogram.sum].every(Number.isFinite)) {
    return 'a figure is not a finite number';
  }
  if (errors > requests) return `more errors (${errors}) than requests (${requests})`;
  if (endedAt < startedAt) return 'the interval ends before it starts';
  if (histogram.count > 0 && histogram.min > histogram.max) return 'the histogram minimum exceeds its maximum';
  try {
    inspectEncoded(histogram);
  } catch (error) {
    return `the latency histogram does not decode: ${error instanceof Error ? error.message : String(error)}`;
  }
  for (const endpoint of snapshot.endpoints ?? []) {
    if (![endpoint.requests, endpoint.errors].every(Number.isFinite)) return `endpoint ${endpoint.name}: a figure is not a finite number`;
    if (endpoint.errors > endpoint.requests) return `endpoint ${endpoint.name}: more errors (${endpoint.errors}) than requests (${endpoint.requests})`;
    try {
      inspectEncoded(endpoint.histogram);
    } catch (error) {
      return `endpoint ${endpoint.name}: the latency histogram does not decode: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return null;
}
