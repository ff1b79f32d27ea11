/** A plain process's outcome, for tool plugins: exit 0 is completed; anything else failed, with the exit code or signal. */
import type { RunOutcome } from '../capabilities/load-tool.ts';

export function processOutcome(exitCode: number | null, signal: string | null): RunOutcome {
  if (exitCode === 0) return { status: 'completed' };
  if (exitCode !== null) return { status: 'failed', reason: `exit code ${exitCode}` };
  if (signal) return { status: 'failed', reason: `killed by ${signal}` };
  return { status: 'failed', reason: 'exited without a status' };
}
