/** Locust's exit codes as outcomes (locust/main.py `shutdown`: 0, exit_code_on_error, 2 for an unhandled greenlet exception, or the script's own). */
import type { RunOutcome } from 'loadplane/plugin';

export interface LocustDiagnostics {
  /** The last error Locust or the script logged (an ERROR line, or a Python exception's last line). */
  lastError?: string;
}

const oneLine = (text: string, max = 300) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

export function locustOutcome(exitCode: number | null, signal: string | null, diagnostics: LocustDiagnostics = {}): RunOutcome {
  if (exitCode === 0) return { status: 'completed' };
  if (exitCode === null) return { status: 'failed', reason: signal ? `killed by ${signal}` : 'locust exited without a status' };
  const detail = diagnostics.lastError ? `: ${oneLine(diagnostics.lastError)}` : '';
  if (exitCode === 2) return { status: 'failed', reason: `an unhandled exception in a Locust greenlet${detail} (exit code 2)` };
  // 1 is also what a locustfile that cannot load gives (syntax error, no User class), with the error logged.
  if (detail) return { status: 'failed', reason: `locust failed${detail} (exit code ${exitCode})` };
  return { status: 'failed', reason: `the locustfile set exit code ${exitCode} (environment.process_exit_code)` };
}
