/**
 * Reads a Gatling run from stdout: the launcher's `@loadplane-metrics {...}` line once a second holds exact counts of
 * response latencies per whole millisecond (Gatling's own resolution), OK and KO, counted in the JVM as Gatling's stats
 * engine receives them; they go into the mergeable histogram and stay out of the log. Every other line is logged and
 * read for the diagnostics the outcome names.
 */
import { LatencyCountsReader, latencyCountsPrefix, MetricRecorder, type ToolOutputParser } from 'loadplane/plugin';
import { type GatlingDiagnostics, gatlingOutcome } from './gatling-exit-codes.ts';

export const metricsPrefix = latencyCountsPrefix;

const failedAssertion = / : false \((?:actual : .*|.*)\)$/;
const compileError = /\.(?:java|scala):\d+: error: /;
const crashLine = /^loadplane: Gatling run crashed: |^Exception in thread "main" /;

export function createGatlingParser(recorder = new MetricRecorder()): ToolOutputParser {
  const diagnostics: GatlingDiagnostics = { failedAssertions: [] };
  const counts = new LatencyCountsReader(recorder);

  return {
    onOutput(_source, line) {
      if (counts.read(line)) return null;
      if (failedAssertion.test(line)) diagnostics.failedAssertions.push(line.trim());
      else if (!diagnostics.compileError && compileError.test(line)) diagnostics.compileError = line.trim();
      else if (!diagnostics.crash && crashLine.test(line)) diagnostics.crash = line.replace(/^loadplane: Gatling run crashed: /, '').trim();
      return line;
    },
    takeInterval: (now) => counts.takeInterval(now),
    summary: () => counts.summary(),
    outcome: (exitCode, signal) => gatlingOutcome(exitCode, signal, diagnostics),
  };
}
