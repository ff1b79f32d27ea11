/**
 * Adds up the snapshots an engine-side hook prints (already histograms, not samples) into interval snapshots and the
 * run's summary: histograms merge bucket by bucket, so nothing is lost between the engine and the agent. For load-tool
 * plugins whose engine aggregates itself (Locust's request hook, Artillery's plugin, k6's output extension).
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { type EncodedHistogram, LatencyHistogram } from './histogram.ts';

interface Window {
  histogram: LatencyHistogram;
  requests: number;
  errors: number;
  first: number | null;
  last: number | null;
}

const emptyWindow = (): Window => ({ histogram: new LatencyHistogram(), requests: 0, errors: 0, first: null, last: null });

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);
const epoch = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null);

/** A snapshot from the engine's hook, checked: null when it is not one (a torn or foreign line). */
export function readEngineSnapshot(json: string): { histogram: LatencyHistogram; requests: number; errors: number; startedAt: number; endedAt: number } | null {
  let parsed: { histogram?: EncodedHistogram; requests?: unknown; errors?: unknown; startedAt?: unknown; endedAt?: unknown };
  try {
    parsed = JSON.parse(json) as typeof parsed;
  } catch {
    return null;
  }
  const requests = count(parsed?.requests);
  const errors = count(parsed?.errors);
  const startedAt = epoch(parsed?.startedAt);
  const endedAt = epoch(parsed?.endedAt);
  if (requests === null || errors === null || startedAt === null || endedAt === null || errors > requests) return null;
  let histogram: LatencyHistogram;
  try {
    histogram = LatencyHistogram.decode(parsed.histogram!);
  } catch {
    return null;
  }
  return { histogram, requests, errors, startedAt, endedAt: Math.max(endedAt, startedAt) };
}

export class SnapshotTotals {
  private interval = emptyWindow();
  private readonly total = emptyWindow();
  private readonly createdAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.createdAt = now();
  }

  add(snapshot: NonNullable<ReturnType<typeof readEngineSnapshot>>): void {
    for (const window of [this.interval, this.total]) {
      window.histogram.merge(snapshot.histogram);
      window.requests += snapshot.requests;
      window.errors += snapshot.errors;
      if (window.first === null || snapshot.startedAt < window.first) window.first = snapshot.startedAt;
      if (window.last === null || snapshot.endedAt > window.last) window.last = snapshot.endedAt;
    }
  }

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
