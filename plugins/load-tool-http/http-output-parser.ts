/**
 * Reads the http engine's output: `LOADPLANE_METRICS` snapshots are the run's metrics, `LOADPLANE_STEP` lines the
 * per-endpoint ones (the step's figures and its failures by kind and code, for the results per endpoint and errors);
 * both are kept out of the log. Every other line (the start line, progress, the summary table) is logged as printed.
 */
import { absorbEngineEndpoint, MetricRecorder, processOutcome, readEngineSnapshot, type RunOutcome, type ToolOutputParser } from 'loadplane/plugin';
import { metricsPrefix, stepPrefix } from './engine/run-stats.ts';

export function httpOutcome(exitCode: number | null, signal: string | null, lastError: string | null): RunOutcome {
  if (exitCode === 143 || exitCode === 130) return { status: 'failed', reason: `the http engine was stopped by ${exitCode === 143 ? 'SIGTERM' : 'SIGINT'}` };
  if (exitCode !== 0 && exitCode !== null && lastError) return { status: 'failed', reason: `${lastError} (exit code ${exitCode})` };
  return processOutcome(exitCode, signal);
}

export function createHttpParser(now: () => number = Date.now): ToolOutputParser {
  const recorder = new MetricRecorder(now);
  let lastError: string | null = null;
  return {
    onOutput(source, line) {
      if (source === 'out' && line.startsWith(metricsPrefix)) {
        const snapshot = readEngineSnapshot(line.slice(metricsPrefix.length));
        if (snapshot) recorder.absorb(snapshot);
        return null;
      }
      if (source === 'out' && line.startsWith(stepPrefix)) {
        // A step line has the shape of an engine's endpoint line: name, figures, failures by kind and code.
        absorbEngineEndpoint(recorder, line.slice(stepPrefix.length));
        return null;
      }
      if (line.startsWith('[http] error: ')) lastError = line.slice('[http] error: '.length);
      return line;
    },
    takeInterval: (at) => recorder.takeInterval(at),
    summary: () => recorder.summary(),
    outcome: (exitCode, signal) => httpOutcome(exitCode, signal, lastError),
  };
}
