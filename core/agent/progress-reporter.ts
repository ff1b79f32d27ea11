/**
 * Keeps a run's live log alive: when the tool printed nothing the log shows for `quietMs`, the agent writes a progress
 * line from the interval metrics it collects anyway. Chatty tools (k6's line a second) never get one; quiet ones
 * (JMeter's summariser every 30 s, Gatling's console every 5 s, Artillery's report every 10 s, Locust with
 * --only-summary, a silent custom script, any engine's start-up) get one at most every `quietMs`. Tool-agnostic: it
 * knows snapshots and lines, no tool.
 */
import type { MetricSnapshot } from '../capabilities/load-tool.ts';
import { LatencyHistogram } from '../domain/metrics/histogram.ts';
import type { Clock } from '../ports/clock.ts';
import { progressLine } from './progress-line.ts';

export interface ProgressReporter {
  /** The tool printed a line the log shows: it shows life in its own words, so no agent line for the next quiet spell. */
  heard(): void;
  /** An interval snapshot, as sent to the server: its figures go into the next line. */
  absorb(snapshot: MetricSnapshot): void;
  /** No more lines (the tool exited). */
  stop(): void;
}

export interface ProgressReporterOptions {
  clock: Clock;
  quietMs: number;
  /** Writes one line into the run's log; `at` is the clock's time. */
  emit(text: string, at: number): void;
}

interface Window {
  histogram: LatencyHistogram;
  requests: number;
  /** Clock times of the snapshots that bound it: one taken at `to` covers the time since the one before. */
  from: number;
  to: number;
}

const windowFrom = (at: number): Window => ({ histogram: new LatencyHistogram(), requests: 0, from: at, to: at });

export function startProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const { clock, quietMs } = options;
  const startedAt = clock.now();
  let lastLineAt = startedAt;
  let requests = 0;
  let errors = 0;
  let recent = windowFrom(startedAt);
  let stopped = false;

  // One timer, set for when the log would have been quiet for quietMs: a tool's line only moves a timestamp, so a
  // chatty tool costs nothing per line.
  const check = () => {
    if (stopped) return;
    const now = clock.now();
    const quietFor = now - lastLineAt;
    if (quietFor < quietMs) {
      cancel = clock.after(quietMs - quietFor, check);
      return;
    }
    const p95Ms = recent.histogram.count > 0 ? recent.histogram.percentile(95) : null;
    const text = progressLine({ elapsedMs: now - startedAt, requests, errors, recent: { requests: recent.requests, ms: recent.to - recent.from, p95Ms } });
    lastLineAt = now;
    recent = windowFrom(recent.to);
    cancel = clock.after(quietMs, check);
    try {
      options.emit(text, now);
    } catch {
      // Runs in a timer: a fault of the log's sink must neither crash the agent nor stop the next line.
    }
  };
  let cancel = clock.after(quietMs, check);

  return {
    heard() {
      lastLineAt = clock.now();
    },
    absorb(snapshot) {
      // The histogram first: a malformed one throws before any count moved.
      recent.histogram.mergeEncoded(snapshot.histogram);
      requests += snapshot.requests;
      errors += snapshot.errors;
      recent.requests += snapshot.requests;
      recent.to = clock.now();
    },
    stop() {
      stopped = true;
      cancel();
    },
  };
}
