/**
 * The k6 parser's bookkeeping: the current interval and the whole run, fed either by JSON samples one at a time
 * (`--out json`) or by the extension's snapshots, which merge exactly (same histogram buckets).
 */
import { LatencyHistogram, type MetricSnapshot } from 'loadplane/plugin';
import type { K6Snapshot } from './k6-snapshot.ts';

interface Window {
  histogram: LatencyHistogram;
  requests: number;
  errors: number;
  first: number | null;
  last: number | null;
}

const emptyWindow = (): Window => ({ histogram: new LatencyHistogram(), requests: 0, errors: 0, first: null, last: null });

function touch(window: Window, from: number, to = from): void {
  if (window.first === null || from < window.first) window.first = from;
  if (window.last === null || to > window.last) window.last = to;
}

export class K6MetricWindows {
  private interval = emptyWindow();
  private readonly total = emptyWindow();
  private readonly createdAt: number;

  constructor(private readonly now: () => number) {
    this.createdAt = now();
  }

  latency(latencyMs: number, at: number): void {
    for (const window of [this.interval, this.total]) {
      window.histogram.record(latencyMs);
      touch(window, at);
    }
  }

  count(requests: number, errors: number, at: number): void {
    for (const window of [this.interval, this.total]) {
      window.requests += requests;
      window.errors += errors;
      touch(window, at);
    }
  }

  absorb(snapshot: K6Snapshot): void {
    for (const window of [this.interval, this.total]) {
      window.histogram.merge(snapshot.histogram);
      window.requests += snapshot.requests;
      window.errors += snapshot.errors;
      touch(window, snapshot.startedAt, snapshot.endedAt);
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

  /** The whole run: from the parser's creation (the run's start) to now or the last sample. */
  summary(now = this.now()): MetricSnapshot {
    const startedAt = Math.min(this.createdAt, this.total.first ?? this.createdAt);
    return {
      histogram: this.total.histogram.encode(),
      requests: this.total.requests,
      errors: this.total.errors,
      startedAt,
      endedAt: Math.max(now, this.total.last ?? now, startedAt),
    };
  }
}
