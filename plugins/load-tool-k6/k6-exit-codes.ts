/**
 * k6's exit codes as readable reasons (go.k6.io/k6 errext/exitcodes, v1.8.1; documented at
 * https://grafana.com/docs/k6/latest/reference/exit-codes/ or in the source where the docs lag).
 */
import type { RunOutcome } from 'loadplane/plugin';

export const k6ThresholdsExitCode = 99;

export const k6ExitReasons: Readonly<Record<number, string>> = {
  97: 'k6 cloud test run failed',
  98: 'k6 could not get the cloud test progress',
  99: 'thresholds crossed',
  100: 'setup() timed out',
  101: 'teardown() timed out',
  102: 'k6 timed out',
  103: 'stopped through the k6 REST API',
  104: 'invalid k6 configuration',
  105: 'k6 was aborted by a signal',
  106: 'k6 could not start its REST API',
  107: 'script error',
  108: 'the script aborted the test (test.abort())',
  109: 'k6 crashed (Go panic)',
  110: 'the script marked the test as failed',
};

export interface K6Diagnostics {
  /** Metric names from k6's "thresholds on metrics '...' have been crossed". */
  crossedThresholds?: string;
  /** The last error k6 logged, for script errors and bad configurations. */
  lastError?: string;
}

/** Keeps the reason one line and bounded: it lands in the task record and in webhooks. */
const oneLine = (text: string, max = 300) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

export function k6Outcome(exitCode: number | null, signal: string | null, diagnostics: K6Diagnostics = {}): RunOutcome {
  if (exitCode === 0) return { status: 'completed' };
  if (exitCode === null) return { status: 'failed', reason: signal ? `killed by ${signal}` : 'k6 exited without a status' };
  if (exitCode === k6ThresholdsExitCode) {
    const which = diagnostics.crossedThresholds ? ` on ${diagnostics.crossedThresholds}` : '';
    return { status: 'failed', reason: `thresholds crossed${which}` };
  }
  const known = k6ExitReasons[exitCode];
  if (!known) return { status: 'failed', reason: `exit code ${exitCode}` };
  const detail = diagnostics.lastError && [104, 107, 108, 110].includes(exitCode) ? `: ${oneLine(diagnostics.lastError)}` : '';
  return { status: 'failed', reason: `${known}${detail} (exit code ${exitCode})` };
}
