/**
 * JMeter's exit as an outcome. Non-GUI JMeter exits 0 after a run, whatever its samples did (failed samples are
 * errors in the metrics, as with every tool), and 1 when it could not run the plan: the reason is then the error it
 * printed last (`Error in NonGUIDriver ...`, `An error occurred: ...`, an ERROR log line).
 */
import type { RunOutcome } from 'loadplane/plugin';

/** Keeps the reason one line and bounded: it lands in the task record and in webhooks. */
const oneLine = (text: string, max = 300) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

const errorLine = /^(?:ERROR\s+\S+:\s*(.+)|Error in NonGUIDriver\s*(.+)|An error occurred:\s*(.+)|(?:Exception in thread "[^"]*"\s*)?(\S*(?:Exception|Error):.+))$/;

/** The error a line reports, or null: JMeter's ERROR log lines, its console errors and uncaught exceptions. */
export function jmeterErrorOf(line: string): string | null {
  const match = errorLine.exec(line.trim());
  if (!match) return null;
  return oneLine(match[1] ?? match[2] ?? match[3] ?? match[4] ?? line);
}

export function jmeterOutcome(exitCode: number | null, signal: string | null, lastError: string | null = null): RunOutcome {
  if (exitCode === 0) return { status: 'completed' };
  if (exitCode === null) return { status: 'failed', reason: signal ? `killed by ${signal}` : 'JMeter exited without a status' };
  if (exitCode === 127) return { status: 'failed', reason: 'JMeter or java was not found (exit code 127)' };
  const why = lastError ? `: ${lastError}` : '';
  return { status: 'failed', reason: `JMeter could not run the plan${why} (exit code ${exitCode})` };
}
