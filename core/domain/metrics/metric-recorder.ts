/**
 * Accumulates one run's samples (or snapshots its engine aggregated) into interval snapshots and a whole-run summary
 * (latency histograms plus counters): the shared bookkeeping of every load-tool output parser.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { LatencyHistogram } from './histogram.ts';

interface Window {
  histogram: LatencyHistogram;
  requests: number;
  errors: number;
  first: number | null;
  last: number | null;
}

const emptyWindow = (): Window => ({ histogram: new LatencyHistogram(), requests: 0, errors: 0, first: null, last: null });

/** A snapshot with no samples, e.g. for a run that never started. */
export function emptySnapshot(startedAt: number, endedAt = startedAt): MetricSnapshot {
  return { histogram: new LatencyHistogram().encode(), requests: 0, errors: 0, startedAt, endedAt };
}

export class MetricRecorder {
  private interval = emptyWindow();
  private readonly total = emptyWindow();
  private readonly createdAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.createdAt = now();
  }

  /** One request: its latency in milliseconds and whether it failed. */
  request(latencyMs: number, failed: boolean, at = this.now()): void {
    this.latency(latencyMs, at);
    this.count(1, failed ? 1 : 0, at);
  }

  /**
   * A latency alone (tools that report durations and request counts as separate samples, like k6); `times` records it
   * that many times at once (engines that count per millisecond, like Gatling's hook).
   */
  latency(latencyMs: number, at = this.now(), times = 1): void {
    for (const window of [this.interval, this.total]) {
      window.histogram.record(latencyMs, times);
      this.touch(window, at);
    }
  }

  /** Request and error counts alone. */
  count(requests: number, errors: number, at = this.now()): void {
    for (const window of [this.interval, this.total]) {
      window.requests += requests;
      window.errors += errors;
      this.touch(window, at);
    }
  }

  /**
   * A snapshot an engine aggregated itself (k6's output extension, Locust's request hook, Artillery's plugin): its
   * histogram merges bucket by bucket, so nothing is lost between the engine and the agent.
   */
  absorb(snapshot: { histogram: LatencyHistogram; requests: number; errors: number; startedAt: number; endedAt: number }): void {
    for (const window of [this.interval, this.total]) {
      window.histogram.merge(snapshot.histogram);
      window.requests += snapshot.requests;
      window.errors += snapshot.errors;
      this.touch(window, snapshot.startedAt, snapshot.endedAt);
    }
  }

  /** What happened since the previous call, or null when nothing did. */
  takeInterval(now = this.now()): MetricSnapshot | null {
    const window = this.interval;
    if (window.first === null) return null;
    this.interval = emptyWindow();
    return {
      histogram: window.histogram.encode(),
      requests: window.requests,
      errors: window.errors,
      startedAt: window.first,
      endedAt: Math.max(window.last ?? now, window.first),
    };
  }

  /**
   * The whole run: from its first sample (the run's start when there is none) to now or the last sample. Not from the
   * recorder's creation: an engine's own start-up (a JVM, Node loading Artillery) sent nothing, and counting it diluted
   * requests_per_sec (Artillery: 0.67/s reported for 2/s sent).
   */
  summary(now = this.now()): MetricSnapshot {
    const startedAt = this.total.first ?? this.createdAt;
    return {
      histogram: this.total.histogram.encode(),
      requests: this.total.requests,
      errors: this.total.errors,
      startedAt,
      endedAt: Math.max(now, this.total.last ?? now, startedAt),
    };
  }

  private touch(window: Window, from: number, to = from): void {
    if (window.first === null || from < window.first) window.first = from;
    if (window.last === null || to > window.last) window.last = to;
  }
}
