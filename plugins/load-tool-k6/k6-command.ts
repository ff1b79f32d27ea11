/**
 * The k6 command for an assignment: `k6 run` with the loadplane output (snapshot lines on stdout) when our k6 has the
 * extension, else JSON sample output; and this machine's share of the load config as CLI flags, which k6 ranks above
 * the script's own options (https://grafana.com/docs/k6/latest/using-k6/k6-options/how-to/).
 */
import { type Assignment, formatDuration, isIdleShare, parseDuration, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';

export const k6ScriptFile = 'script.js';
export const k6SampleFile = 'samples.jsonl';

const k6Duration = (duration: string) => formatDuration(parseDuration(duration));

export interface K6CommandOptions {
  /** The binary has the loadplane output extension (`k6 version` lists `loadplane [output]`). */
  snapshots?: boolean;
}

export function k6Command(assignment: Assignment, binary: string, options: K6CommandOptions = {}): ToolCommand {
  const env: Record<string, string> = {
    // k6 hands the process environment to scripts as __ENV, so scripts can tell machines apart.
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
  };
  const files = { [k6ScriptFile]: assignment.script };
  const argv = [
    binary,
    'run',
    '--no-usage-report',
    '--no-color',
    // No --quiet: without a terminal k6 prints a progress line a second ("running (12.0s), 20/20 VUs, ..."), which is
    // what the live log shows while the run goes; with --quiet it stayed silent until the end-of-test summary.
    // The extension aggregates inside k6 and prints a snapshot every 500 ms; JSON costs k6 a line per sample.
    '--out',
    options.snapshots ? 'loadplane' : `json=${k6SampleFile}`,
  ];
  if (assignment.config) {
    const share = splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount);
    if (isIdleShare(share)) {
      // Fewer VUs than machines: k6 refuses 0 VUs (exit 104), so this machine only proves k6 is there and completes.
      return { argv: [binary, 'version'], env, files };
    }
    if (share.stages) {
      // k6 starts ramping-vus at --vus (default 1); a load config's stages ramp from 0.
      argv.push('--vus', '0');
      for (const stage of share.stages) argv.push('--stage', `${k6Duration(stage.duration)}:${stage.target}`);
    } else if (share.vus !== undefined && share.duration) {
      argv.push('--vus', String(share.vus), '--duration', k6Duration(share.duration));
    }
  }
  argv.push(k6ScriptFile);
  return options.snapshots ? { argv, env, files } : { argv, env, files, sampleFile: k6SampleFile };
}
