/**
 * The Locust command for an assignment: headless, the metrics hook loaded through our entry file, and this machine's
 * share of the load config as Locust's own options (`-u/-r/--run-time`), or as a LoadTestShape for stages.
 */
import { type Assignment, isIdleShare, parseDuration, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';
import { locustEntry, locustEntryFile, locustScriptFile, stageSeconds } from './locust-entry.ts';
import { locustMetricsHook, locustMetricsModule } from './locust-metrics-hook.ts';

/** How long a stopping user may finish its current task: what was sent is then also measured (k6's gracefulStop is 30 s too). */
export const locustStopTimeoutS = 30;

/** Locust's --run-time wants whole units (`90s`); a config's `500ms` rounds up to a second. */
const runTime = (duration: string) => `${Math.max(1, Math.ceil(parseDuration(duration) / 1000))}s`;

export function locustCommand(assignment: Assignment, binary: string, metricsIntervalS = 1): ToolCommand {
  const env: Record<string, string> = {
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
    LOADPLANE_METRICS_INTERVAL: String(metricsIntervalS),
    // The script's print() lines reach the log as they happen, not when a pipe buffer fills.
    PYTHONUNBUFFERED: '1',
    // The engine's directory is read-only for the tool: no __pycache__ attempts.
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const share = assignment.config ? splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount) : null;
  if (share && isIdleShare(share)) {
    // Fewer users than machines: this one only proves Locust is there, and completes.
    return { argv: [binary, '--version'], env, files: {} };
  }
  const stages = share?.stages ? stageSeconds(share.stages) : undefined;
  const files = {
    [locustScriptFile]: assignment.script,
    [locustMetricsModule]: locustMetricsHook,
    [locustEntryFile]: locustEntry(stages),
  };
  const argv = [
    binary,
    '-f',
    locustEntryFile,
    '--headless',
    // No stats table every 2 s in the log: the metrics come from the hook; the summary is still printed at the end.
    '--only-summary',
    // A failed request is an error in error_rate, not a failed run (as in k6); a script fails its run through
    // environment.process_exit_code, Locust's own way of checking results.
    '--exit-code-on-error',
    '0',
    '--stop-timeout',
    String(locustStopTimeoutS),
  ];
  if (share && !share.stages && share.vus !== undefined && share.duration) {
    // All users at once, as k6's constant VUs.
    argv.push('-u', String(share.vus), '-r', String(share.vus), '--run-time', runTime(share.duration));
  }
  return { argv, env, files };
}
