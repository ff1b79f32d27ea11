/** The custom tool's output parser: sample lines become requests (and stay out of the log); every other line is logged. */
import { MetricRecorder, processOutcome, type ToolOutputParser } from 'loadplane/plugin';
import { parseSampleLine } from './sample-line.ts';

export function createCustomParser(now: () => number = Date.now): ToolOutputParser {
  const recorder = new MetricRecorder(now);
  return {
    onOutput(source, line) {
      // Only stdout carries samples: stderr is for humans, and a sample there is most likely an echo of one.
      const sample = source === 'out' ? parseSampleLine(line) : null;
      if (!sample) return line;
      recorder.request(sample.latencyMs, sample.failed);
      return null;
    },
    takeInterval: (at) => recorder.takeInterval(at),
    summary: () => recorder.summary(),
    outcome: processOutcome,
  };
}
