/**
 * Reads a JMeter run. With Loadplane's listener, stdout carries one `@loadplane-metrics` line a second (latencies
 * counted per millisecond in the JVM) between JMeter's console lines; without it (a JMeter of the operator's own),
 * stdout is the JTL, one sample per line. Either goes into the histogram and counters and stays out of the log; every
 * other line (stderr is JMeter's log) is logged and watched for the error that explains a failed exit.
 */
import { LatencyCountsReader, MetricRecorder, type ToolOutputParser } from 'loadplane/plugin';
import { parseJtlLine } from './jtl-line.ts';
import { jmeterErrorOf, jmeterOutcome } from './jmeter-outcome.ts';

export function createJmeterParser(now: () => number = Date.now): ToolOutputParser {
  const counts = new LatencyCountsReader(new MetricRecorder(now));
  let lastError: string | null = null;

  return {
    onOutput(source, line) {
      if (source === 'out') {
        if (counts.read(line)) return null;
        const sample = parseJtlLine(line);
        if (sample) {
          // Attributed to the sample's end: when its latency became known, as the other tools' samples are.
          counts.recorder.request(sample.elapsedMs, !sample.success, sample.startedAt + sample.elapsedMs);
          return null;
        }
      }
      lastError = jmeterErrorOf(line) ?? lastError;
      return line;
    },
    takeInterval: (at) => counts.takeInterval(at),
    summary: () => counts.summary(),
    outcome: (exitCode, signal) => jmeterOutcome(exitCode, signal, lastError),
  };
}
