/**
 * Accumulates one run's samples (or snapshots its engine aggregated) into interval snapshots and a whole-run summary
 * (latency histograms plus counters): the shared bookkeeping of every load-tool output parser.
 *
 * An endpoint's interval that holds one encoded histogram from its engine and nothing else (the usual case: an engine
 * prints one line per endpoint and second) sends that histogram on as it came, without decoding, merging and encoding
 * it again: the same string and figures the round trip writes, checked to be so (`inspectEncoded`). For 50 steps of
 * 2,000 requests a second that took the agent's interval from ~18 ms of CPU a second to under 2
 * (bench/runs/endpoint-interval-cpu.ts).
 */
import type { EndpointSnapshot, ErrorGroup, ErrorKind, MetricSnapshot } from '../../capabilities/load-tool.ts';
import { type EncodedHistogram, inspectEncoded, LatencyHistogram } from './histogram.ts';

/** Distinct endpoint names a run keeps; later names are folded into `otherEndpoint` (totals intact). */
export const maxEndpointNames = 200;
/** The row that holds every name past the first `maxEndpointNames`. */
export const otherEndpoint = '(other)';
/** Error groups (endpoint, kind, code) an interval keeps; later ones are folded into one group per kind under `(other)`. */
export const maxErrorGroups = 100;
/** A group's sample message is cut to this many characters. */
export const maxErrorMessageLength = 300;
/** An endpoint name is cut to this many characters (a URL with a long query string). */
export const maxEndpointNameLength = 200;

const errorKinds: readonly ErrorKind[] = ['status', 'network', 'check', 'script'];

/** What one failure says, for `MetricRecorder.failure` and `request`. */
export interface FailureDetail {
  kind: ErrorKind;
  code: string;
  message: string;
}

interface EndpointWindow {
  /** Null until the window holds a sample, or a histogram it cannot send on as it came. */
  histogram: LatencyHistogram | null;
  /**
   * The window's only histogram so far, as its engine encoded it (in the form encode writes, its figures as merging it
   * into an empty histogram leaves them): the interval's snapshot carries it as it is, unless more comes (histogramOf).
   */
  forwarded: EncodedHistogram | null;
  requests: number;
  errors: number;
}

/** The window's histogram to add to: made on first use, with the histogram it held to send on merged in first. */
function histogramOf(window: EndpointWindow): LatencyHistogram {
  if (!window.histogram) window.histogram = new LatencyHistogram();
  if (window.forwarded) {
    window.histogram.mergeEncoded(window.forwarded);
    window.forwarded = null;
  }
  return window.histogram;
}

/**
 * What `new LatencyHistogram().merge(LatencyHistogram.decode(encoded)).encode()` writes for a sound histogram whose
 * buckets are in encode's form (inspectEncoded): its buckets as they are, its figures through the same operations.
 */
function forwardedForm(encoded: EncodedHistogram): EncodedHistogram {
  const sampled = encoded.count > 0;
  return {
    v: 1,
    buckets: encoded.buckets,
    count: 0 + encoded.count,
    min: sampled ? Math.min(Number.POSITIVE_INFINITY, encoded.min) : 0,
    max: sampled ? Math.max(0, encoded.max) : 0,
    sum: 0 + encoded.sum,
  };
}

/** A name as stored: trimmed, cut to its bound, `(unnamed)` when empty. */
export function endpointNameOf(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  return text === '' ? '(unnamed)' : text.slice(0, maxEndpointNameLength);
}

/** A message as stored: one line, cut to its bound. */
export function errorMessageOf(message: unknown): string {
  const text = typeof message === 'string' ? message.replace(/\s+/g, ' ').trim() : '';
  return text.length > maxErrorMessageLength ? `${text.slice(0, maxErrorMessageLength - 1)}…` : text;
}

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
  private endpoints = new Map<string, EndpointWindow>();
  private errorGroups = new Map<string, ErrorGroup>();
  /** Every endpoint name the run kept (at most maxEndpointNames). */
  private readonly names = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {
    this.createdAt = now();
  }

  /**
   * One request: its latency in milliseconds and whether it failed; with `endpoint`, also that endpoint's, and with
   * `failure` (of a failed request), its error group.
   */
  request(latencyMs: number, failed: boolean, at = this.now(), detail: { endpoint?: string; failure?: FailureDetail } = {}): void {
    this.latency(latencyMs, at);
    this.count(1, failed ? 1 : 0, at);
    if (detail.endpoint !== undefined) {
      const window = this.endpointWindow(detail.endpoint);
      histogramOf(window).record(latencyMs);
      window.requests++;
      if (failed) window.errors++;
    }
    if (failed && detail.failure) this.failure(detail.endpoint ?? '', detail.failure);
  }

  /**
   * The name a request of `name` is kept under: its own (trimmed, bounded) while the run has fewer than
   * maxEndpointNames, else `(other)`.
   */
  endpointName(name: string): string {
    const kept = endpointNameOf(name);
    if (kept === otherEndpoint || this.names.has(kept)) return kept;
    if (this.names.size >= maxEndpointNames) return otherEndpoint;
    this.names.add(kept);
    return kept;
  }

  /**
   * An endpoint's share of the interval that its engine aggregated (a histogram, counts): only the endpoint's figures,
   * the whole machine's are recorded apart (absorb, request, latency and count). `encoded` is the engine's histogram as
   * it printed it, taken as `histogram: LatencyHistogram.decode(encoded)` would be (it throws what decode throws, before
   * anything is recorded), but sent on without the round trip when it is the window's only histogram.
   */
  absorbEndpoint(
    name: string,
    figures: { histogram?: LatencyHistogram; encoded?: EncodedHistogram; latencyMs?: number; times?: number; requests?: number; errors?: number },
  ): void {
    const shape = figures.encoded ? inspectEncoded(figures.encoded, { canonical: true }) : null;
    const window = this.endpointWindow(name);
    if (figures.histogram) histogramOf(window).merge(figures.histogram);
    if (figures.encoded) {
      if (!shape!.canonical) {
        // Not in encode's form (a repeated bucket, a longer varint): read as decode reads it, which differs.
        histogramOf(window).merge(LatencyHistogram.decode(figures.encoded));
      } else if (window.histogram === null && window.forwarded === null) {
        window.forwarded = forwardedForm(figures.encoded);
      } else {
        // In encode's form, mergeEncoded adds what merging its decoded histogram adds.
        histogramOf(window).mergeEncoded(figures.encoded);
      }
    }
    if (figures.latencyMs !== undefined) histogramOf(window).record(figures.latencyMs, figures.times ?? 1);
    window.requests += figures.requests ?? 0;
    window.errors += figures.errors ?? 0;
  }

  /** `count` failures of `endpoint` (empty: the request had no name) of one kind and code, with a sample message. */
  failure(endpoint: string, failure: FailureDetail, count = 1): void {
    if (!Number.isFinite(count) || count <= 0 || !errorKinds.includes(failure.kind)) return;
    const name = endpoint === '' ? '' : this.endpointName(endpoint);
    const code = String(failure.code ?? '').slice(0, 100);
    let key = JSON.stringify([name, failure.kind, code]);
    let group = this.errorGroups.get(key);
    if (!group && this.errorGroups.size >= maxErrorGroups) {
      key = JSON.stringify([otherEndpoint, failure.kind, otherEndpoint]);
      group = this.errorGroups.get(key);
      if (!group) {
        group = { endpoint: otherEndpoint, kind: failure.kind, code: otherEndpoint, message: 'more kinds of errors than a report keeps', count: 0 };
        this.errorGroups.set(key, group);
      }
    }
    if (!group) this.errorGroups.set(key, (group = { endpoint: name, kind: failure.kind, code, message: errorMessageOf(failure.message), count: 0 }));
    group.count += Math.round(count);
  }

  private endpointWindow(name: string): EndpointWindow {
    const kept = this.endpointName(name);
    let window = this.endpoints.get(kept);
    if (!window) this.endpoints.set(kept, (window = { histogram: null, forwarded: null, requests: 0, errors: 0 }));
    return window;
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
    const snapshot: MetricSnapshot = {
      histogram: window.histogram.encode(),
      requests: window.requests,
      errors: window.errors,
      startedAt: window.first,
      endedAt: Math.max(window.last ?? now, window.first),
    };
    if (this.endpoints.size > 0) {
      snapshot.endpoints = [...this.endpoints].map(
        ([name, one]): EndpointSnapshot => ({
          name,
          requests: one.requests,
          errors: Math.min(one.errors, one.requests),
          histogram: one.forwarded ?? (one.histogram ?? new LatencyHistogram()).encode(),
        }),
      );
      this.endpoints = new Map();
    }
    if (this.errorGroups.size > 0) {
      snapshot.errorGroups = [...this.errorGroups.values()];
      this.errorGroups = new Map();
    }
    return snapshot;
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
