/** Artillery's exit codes as outcomes (artillery/lib/cmds/run.js: 0, 1 for failed `ensure` checks or errors, 130 SIGINT, 143 SIGTERM). */
import type { RunOutcome } from 'loadplane/plugin';

export interface ArtilleryDiagnostics {
  /** `ensure` checks that failed (`fail: http.response_time.p95 < 200`), in order. */
  failedChecks: string[];
  /** The last error Artillery printed (a script validation error, a YAML error, a worker error). */
  lastError?: string;
}

const oneLine = (text: string, max = 300) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

export function artilleryOutcome(exitCode: number | null, signal: string | null, diagnostics: ArtilleryDiagnostics = { failedChecks: [] }): RunOutcome {
  if (exitCode === 0) return { status: 'completed' };
  if (exitCode === null) return { status: 'failed', reason: signal ? `killed by ${signal}` : 'artillery exited without a status' };
  if (diagnostics.failedChecks.length > 0) {
    return { status: 'failed', reason: oneLine(`ensure checks failed: ${diagnostics.failedChecks.join('; ')}`) };
  }
  if (exitCode === 130 || exitCode === 143) return { status: 'failed', reason: `artillery was stopped by ${exitCode === 130 ? 'SIGINT' : 'SIGTERM'} (exit code ${exitCode})` };
  const detail = diagnostics.lastError ? `: ${oneLine(diagnostics.lastError)}` : '';
  return { status: 'failed', reason: `artillery failed${detail} (exit code ${exitCode})` };
}
