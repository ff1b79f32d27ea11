/**
 * The engine's bookkeeping: per endpoint name and overall, an interval window (printed as snapshot lines, then reset)
 * and the run's totals (the summary table at the end), with errors by kind (`status`, `network`, `check`) and by code.
 * Pure: the engine's main module feeds it requests and prints what it answers.
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

function add(window: Window, latencyMs: number, failure: Failure | null, at: number): void {
  window.histogram.record(latencyMs);
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
  private overall = emptyWindow();
  private readonly overallTotal = emptyWindow();
  private readonly intervals = new Map<string, Window>();
  private readonly totals = new Map<string, Window>();

  /** `names` in step order (repeats merge): the summary lists them in this order. */
  constructor(names: readonly string[]) {
    for (const name of names) {
      if (!this.totals.has(name)) this.totals.set(name, emptyWindow());
      this.intervals.set(name, emptyWindow());
    }
  }

  /** One answered (or failed) request of the endpoint `name`, at epoch milliseconds `at`. */
  record(name: string, latencyMs: number, failure: Failure | null, at: number): void {
    add(this.overall, latencyMs, failure, at);
    add(this.overallTotal, latencyMs, failure, at);
    add(this.intervals.get(name)!, latencyMs, failure, at);
    add(this.totals.get(name)!, latencyMs, failure, at);
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
    for (const [name, window] of this.intervals) {
      if (window.requests === 0) continue;
      const step: StepSnapshotJson = { name, ...snapshotOf(window), errorsByKind: window.byKind, failures: [...window.failures.values()] };
      lines.push(stepPrefix + JSON.stringify(step));
      this.intervals.set(name, emptyWindow());
    }
    lines.push(metricsPrefix + JSON.stringify({ ...snapshotOf(this.overall), vus }));
    this.overall = emptyWindow();
    return lines;
  }

  /** The end-of-run table for the log: per endpoint, requests, errors by kind and percentiles; then what failed, and how. */
  summaryLines(): string[] {
    const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
    const rows = [...this.totals, ['(all steps)', this.overallTotal] as const].map(([name, window]) => [
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
    for (const [name, window] of this.totals) {
      for (const failure of [...window.failures.values()].sort((a, b) => b.count - a.count)) {
        lines.push(`[http] ${name}: ${failure.count} × ${failure.kind} ${failure.code}: ${failure.message}`);
      }
    }
    return lines;
  }
}
