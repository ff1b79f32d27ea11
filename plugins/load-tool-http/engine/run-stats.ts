/**
 * The engine's bookkeeping: per endpoint name and overall, an interval window (printed as snapshot lines, then reset)
 * and the run's totals (the summary table at the end), with errors by kind (`status`, `network`, `check`) and by code.
 * Pure: the engine's main module feeds it requests and prints what it answers.
 *
 * A request's latency goes into one histogram only, its endpoint's interval one; the machine's interval histogram and
 * every total are merged from those, bucket by bucket (exact), once per interval. Recording into four histograms per
 * request cost the engine CPU that grew with the steps: 2 per name are 100 histograms at 50 steps, and each request
 * touched two of them far apart in memory.
 */
import { StepHistogram, type WireHistogram } from './step-histogram.ts';

export type FailureKind = 'status' | 'network' | 'check';

export interface Failure {
  kind: FailureKind;
  /** `500`, `ConnectionRefused`, `timeout`, `body_contains`. */
  code: string;
  /** The first message seen for this kind and code, e.g. `status 500, expected below 400`. */
  message: string;
}

/** The prefixes of the engine's snapshot lines: the whole machine's, and one line per endpoint name. */
export const metricsPrefix = 'LOADPLANE_METRICS ';
export const stepPrefix = 'LOADPLANE_STEP ';

/** Distinct failures kept per name and window: a target that answers a new error text each time must not grow a line. */
const maxFailureKeys = 20;

interface Window {
  histogram: StepHistogram;
  requests: number;
  errors: number;
  first: number;
  last: number;
  byKind: Record<FailureKind, number>;
  failures: Map<string, Failure & { count: number }>;
}

const emptyWindow = (): Window => ({
  histogram: new StepHistogram(),
  requests: 0,
  errors: 0,
  first: 0,
  last: 0,
  byKind: { status: 0, network: 0, check: 0 },
  failures: new Map(),
});

/** Empties an interval window in place once its line is printed: its histogram's chunks serve the next interval. */
function clearWindow(window: Window): void {
  window.histogram.clear();
  window.requests = 0;
  window.errors = 0;
  window.first = 0;
  window.last = 0;
  window.byKind = { status: 0, network: 0, check: 0 };
  window.failures = new Map();
}

/** A request's counts in `window`; its latency is recorded apart (RunStats.recordAt). */
function count(window: Window, failure: Failure | null, at: number): void {
  window.requests++;
  if (window.first === 0) window.first = at;
  window.last = at;
  if (!failure) return;
  window.errors++;
  window.byKind[failure.kind]++;
  const key = `${failure.kind} ${failure.code}`;
  const known = window.failures.get(key);
  if (known) known.count++;
  else if (window.failures.size < maxFailureKeys) window.failures.set(key, { ...failure, count: 1 });
  else {
    const other = window.failures.get(`${failure.kind} other`);
    if (other) other.count++;
    else window.failures.set(`${failure.kind} other`, { kind: failure.kind, code: 'other', message: 'other errors of this kind', count: 1 });
  }
}

/** One snapshot as readEngineSnapshot reads it (plus what only the http tool knows). */
export interface SnapshotJson {
  requests: number;
  errors: number;
  startedAt: number;
  endedAt: number;
  histogram: WireHistogram;
}

export interface StepSnapshotJson extends SnapshotJson {
  name: string;
  errorsByKind: Record<FailureKind, number>;
  failures: (Failure & { count: number })[];
}

const snapshotOf = (window: Window): SnapshotJson => ({
  requests: window.requests,
  errors: window.errors,
  startedAt: window.first,
  endedAt: Math.max(window.last, window.first),
  histogram: window.histogram.encode(),
});

export class RunStats {
  private readonly overall = emptyWindow();
  private readonly overallTotal = emptyWindow();
  /** Endpoint names in step order, each once; `intervals[i]` and `totals[i]` are the windows of `names[i]`. */
  private readonly names: string[] = [];
  private readonly slots = new Map<string, number>();
  private readonly intervals: Window[] = [];
  private readonly totals: Window[] = [];

  /** `names` in step order (repeats merge): the summary lists them in this order. */
  constructor(names: readonly string[]) {
    for (const name of names) {
      if (this.slots.has(name)) continue;
      this.slots.set(name, this.names.length);
      this.names.push(name);
      this.intervals.push(emptyWindow());
      this.totals.push(emptyWindow());
    }
  }

  /** The slot of the endpoint `name` (one of the constructor's names), for recordAt: looked up once per step, not per request. */
  slotOf(name: string): number {
    const slot = this.slots.get(name);
    if (slot === undefined) throw new Error(`no endpoint named ${name}`);
    return slot;
  }

  /** One answered (or failed) request of the endpoint `name`, at epoch milliseconds `at`. */
  record(name: string, latencyMs: number, failure: Failure | null, at: number): void {
    this.recordAt(this.slotOf(name), latencyMs, failure, at);
  }

  /** record, by the endpoint's slot (slotOf). */
  recordAt(slot: number, latencyMs: number, failure: Failure | null, at: number): void {
    const interval = this.intervals[slot]!;
    interval.histogram.record(latencyMs);
    count(interval, failure, at);
    count(this.totals[slot]!, failure, at);
    count(this.overall, failure, at);
    count(this.overallTotal, failure, at);
  }

  get requests(): number {
    return this.overallTotal.requests;
  }

  get errors(): number {
    return this.overallTotal.errors;
  }

  /**
   * The lines of the interval since the last call (none when nothing happened): one per endpoint name that had
   * requests, then the machine's snapshot with the VUs running now. Each carries one histogram, so a run of many steps
   * never makes one line long enough for the agent to cut it.
   */
  takeLines(vus: number): string[] {
    if (this.overall.requests === 0) return [];
    const lines: string[] = [];
    this.names.forEach((name, slot) => {
      const window = this.intervals[slot]!;
      if (window.requests === 0) return;
      const step: StepSnapshotJson = { name, ...snapshotOf(window), errorsByKind: window.byKind, failures: [...window.failures.values()] };
      lines.push(stepPrefix + JSON.stringify(step));
      this.overall.histogram.add(window.histogram);
      this.totals[slot]!.histogram.add(window.histogram);
      clearWindow(window);
    });
    lines.push(metricsPrefix + JSON.stringify({ ...snapshotOf(this.overall), vus }));
    this.overallTotal.histogram.add(this.overall.histogram);
    clearWindow(this.overall);
    return lines;
  }

  /** The end-of-run table for the log: per endpoint, requests, errors by kind and percentiles; then what failed, and how. */
  summaryLines(): string[] {
    const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
    // The totals' histograms hold the intervals already printed; the one under way is added here, without taking it.
    const histograms = this.names.map((_, slot) => new StepHistogram().add(this.totals[slot]!.histogram).add(this.intervals[slot]!.histogram));
    const all = new StepHistogram().add(this.overallTotal.histogram);
    for (const interval of this.intervals) all.add(interval.histogram);
    const totals = this.names.map((name, slot) => [name, { ...this.totals[slot]!, histogram: histograms[slot]! }] as const);
    const rows = [...totals, ['(all steps)', { ...this.overallTotal, histogram: all }] as const].map(([name, window]) => [
      name,
      String(window.requests),
      String(window.errors),
      String(window.byKind.status),
      String(window.byKind.network),
      String(window.byKind.check),
      ms(window.histogram.percentile(50)),
      ms(window.histogram.percentile(95)),
      ms(window.histogram.percentile(99)),
    ]);
    const header = ['step', 'requests', 'errors', 'status', 'network', 'check', 'p50 ms', 'p95 ms', 'p99 ms'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    const format = (row: readonly string[]) =>
      row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
    const lines = ['[http] summary', format(header), ...rows.map(format)];
    for (const [name, window] of totals) {
      for (const failure of [...window.failures.values()].sort((a, b) => b.count - a.count)) {
        lines.push(`[http] ${name}: ${failure.count} × ${failure.kind} ${failure.code}: ${failure.message}`);
      }
    }
    return lines;
  }
}
