/**
 * Gatling's exit codes under Loadplane's launcher as readable reasons: Gatling's own (io.gatling.app.cli.StatusCode:
 * 0 success, 1 invalid arguments or a crashed run, 2 assertions failed) and the launcher's 3 (the simulation does not
 * compile).
 */
import { processOutcome, type RunOutcome } from 'loadplane/plugin';

export const gatlingExitCodes = { success: 0, crashed: 1, assertionsFailed: 2, compilationFailed: 3 } as const;

export interface GatlingDiagnostics {
  /** Gatling's failed assertion lines (`Global: max of response time is less than 10 : false (actual : 12)`). */
  failedAssertions: string[];
  /** The first javac or scalac error (`Sim.java:7: error: cannot find symbol`). */
  compileError?: string;
  /** The launcher's crash line (`loadplane: Gatling run crashed: ...`) or Gatling's first exception. */
  crash?: string;
}

const oneLine = (text: string, max = 300) => {
  const line = text.split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

export function gatlingOutcome(exitCode: number | null, signal: string | null, diagnostics: GatlingDiagnostics): RunOutcome {
  switch (exitCode) {
    case gatlingExitCodes.success:
      return { status: 'completed' };
    case gatlingExitCodes.assertionsFailed: {
      const which = diagnostics.failedAssertions.length ? `: ${oneLine(diagnostics.failedAssertions.join('; '))}` : '';
      return { status: 'failed', reason: `assertions failed${which} (exit code 2)` };
    }
    case gatlingExitCodes.compilationFailed:
      return { status: 'failed', reason: `the simulation does not compile${diagnostics.compileError ? `: ${oneLine(diagnostics.compileError)}` : ''} (exit code 3)` };
    case gatlingExitCodes.crashed:
      return { status: 'failed', reason: `Gatling failed${diagnostics.crash ? `: ${oneLine(diagnostics.crash)}` : ''} (exit code 1)` };
    case 143:
      // The JVM's exit status after SIGTERM (128 + 15), when it ran its shutdown hooks in time.
      return { status: 'failed', reason: 'stopped by SIGTERM (exit code 143)' };
    default:
      return processOutcome(exitCode, signal);
  }
}
