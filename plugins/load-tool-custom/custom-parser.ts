/**
 * The custom tool's output parser: sample lines become requests (and stay out of the log), named ones also the
 * endpoint's; a failed one's code says its error group. Every other line is logged.
 */
import { type FailureDetail, MetricRecorder, processOutcome, type ToolOutputParser } from 'loadplane/plugin';
import { parseSampleLine, type Sample } from './sample-line.ts';

/** A failed sample's error group: a status code is `status`, any other code (or none) `script`. */
export function sampleFailure(sample: Sample): FailureDetail {
  const code = sample.code ?? 'error';
  if (/^[1-5]\d\d$/.test(code)) return { kind: 'status', code, message: `status ${code}` };
  return { kind: 'script', code, message: sample.code ? `the script reported error ${code}` : 'the script reported an error' };
}

export function createCustomParser(now: () => number = Date.now): ToolOutputParser {
  const recorder = new MetricRecorder(now);
  return {
    onOutput(source, line) {
      // Only stdout carries samples: stderr is for humans, and a sample there is most likely an echo of one.
      const sample = source === 'out' ? parseSampleLine(line) : null;
      if (!sample) return line;
      recorder.request(sample.latencyMs, sample.failed, undefined, {
        ...(sample.name !== undefined ? { endpoint: sample.name } : {}),
        ...(sample.failed ? { failure: sampleFailure(sample) } : {}),
      });
      return null;
    },
    takeInterval: (at) => recorder.takeInterval(at),
    summary: () => recorder.summary(),
    outcome: processOutcome,
  };
}
