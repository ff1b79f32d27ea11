/**
 * Reads a Gatling run from stdout: the launcher's `@loadplane-metrics {...}` line once a second holds exact counts of
 * response latencies per whole millisecond (Gatling's own resolution), OK and KO, counted in the JVM as Gatling's stats
 * engine receives them; they go into the mergeable histogram and stay out of the log. Every other line is logged and
 * read for the diagnostics the outcome names.
 */
import { MetricRecorder, type ToolOutputParser } from 'loadplane/plugin';
import { type GatlingDiagnostics, gatlingOutcome } from './gatling-exit-codes.ts';

export const metricsPrefix = '@loadplane-metrics ';

interface MetricsLine {
  from: number;
  to: number;
  ok: Record<string, number>;
  ko: Record<string, number>;
}

function readMetrics(line: string): MetricsLine | null {
  try {
    const parsed = JSON.parse(line.slice(metricsPrefix.length)) as MetricsLine;
    if (typeof parsed.from !== 'number' || typeof parsed.to !== 'number' || typeof parsed.ok !== 'object' || typeof parsed.ko !== 'object') return null;
    return parsed;
  } catch {
    return null;
  }
}

const failedAssertion = / : false \((?:actual : .*|.*)\)$/;
const compileError = /\.(?:java|scala):\d+: error: /;
const crashLine = /^loadplane: Gatling run crashed: |^Exception in thread "main" /;

export function createGatlingParser(recorder = new MetricRecorder()): ToolOutputParser {
  const diagnostics: GatlingDiagnostics = { failedAssertions: [] };
  // The load's own window: the first request's start to the last response's end (not the JVM's start-up and javac).
  let firstStart: number | null = null;
  let lastEnd: number | null = null;

  function record(metrics: MetricsLine) {
    firstStart = Math.min(firstStart ?? metrics.from, metrics.from);
    lastEnd = Math.max(lastEnd ?? metrics.to, metrics.to);
    // The window's first start and last end set the snapshot's time span; each latency lands at the window's end.
    recorder.count(0, 0, metrics.from);
    for (const [counts, failed] of [[metrics.ok, false], [metrics.ko, true]] as const) {
      for (const [ms, times] of Object.entries(counts)) {
        const latency = Number(ms);
        if (!Number.isFinite(latency) || !Number.isInteger(times) || times <= 0) continue;
        recorder.latency(latency, metrics.to, times);
        recorder.count(times, failed ? times : 0, metrics.to);
      }
    }
  }

  return {
    onOutput(_source, line) {
      if (line.startsWith(metricsPrefix)) {
        const metrics = readMetrics(line);
        if (metrics) {
          record(metrics);
          return null;
        }
        return line;
      }
      if (failedAssertion.test(line)) diagnostics.failedAssertions.push(line.trim());
      else if (!diagnostics.compileError && compileError.test(line)) diagnostics.compileError = line.trim();
      else if (!diagnostics.crash && crashLine.test(line)) diagnostics.crash = line.replace(/^loadplane: Gatling run crashed: /, '').trim();
      return line;
    },
    takeInterval: (now) => recorder.takeInterval(now),
    summary() {
      const summary = recorder.summary();
      return firstStart === null || lastEnd === null ? summary : { ...summary, startedAt: firstStart, endedAt: Math.max(lastEnd, firstStart) };
    },
    outcome: (exitCode, signal) => gatlingOutcome(exitCode, signal, diagnostics),
  };
}
