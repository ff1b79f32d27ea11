/**
 * Reads a JMeter run: stdout is the JTL (one sample per line, into the histogram and counters; kept out of the log),
 * stderr is JMeter's log and console, logged line by line and watched for the error that explains a failed exit.
 */
import { MetricRecorder, type ToolOutputParser } from 'loadplane/plugin';
import { parseJtlLine } from './jtl-line.ts';
import { jmeterErrorOf, jmeterOutcome } from './jmeter-outcome.ts';

export function createJmeterParser(now: () => number = Date.now): ToolOutputParser {
  const recorder = new MetricRecorder(now);
  let lastError: string | null = null;

  return {
    onOutput(source, line) {
      if (source === 'out') {
        const sample = parseJtlLine(line);
        if (sample) {
          // Attributed to the sample's end: when its latency became known, as the other tools' samples are.
          recorder.request(sample.elapsedMs, !sample.success, sample.startedAt + sample.elapsedMs);
          return null;
        }
      }
      lastError = jmeterErrorOf(line) ?? lastError;
      return line;
    },
    takeInterval: (at) => recorder.takeInterval(at),
    summary: () => recorder.summary(),
    outcome: (exitCode, signal) => jmeterOutcome(exitCode, signal, lastError),
  };
}
