/**
 * The Artillery command for an assignment: `artillery run` with our metrics plugin enabled and this machine's share of
 * the load config as phases (`--overrides`, which replaces the script's `config.phases` whole).
 *
 * Artillery's load model is open: a virtual user is one run of a scenario, and phases say how many start each second.
 * A load config's VUs are therefore arrivals per second here: `vus: 10, duration: 30s` starts 10 scenario runs each
 * second for 30 s; stages ramp the arrival rate from the previous target (0 first) to their own.
 */
import { type Assignment, isIdleShare, type LoadConfig, parseDuration, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';
import { artilleryMetricsPlugin, artilleryPluginFile, artilleryPluginName } from './artillery-metrics-plugin.ts';
import { artilleryPreload, artilleryPreloadFile } from './artillery-preload.ts';

export const artilleryScriptFile = 'script.yml';

export interface ArtilleryPhase {
  duration: number;
  arrivalRate: number;
  rampTo?: number;
}

/** Artillery phases take whole seconds; a config's `500ms` rounds up to one. */
const seconds = (duration: string, field: string) => Math.max(1, Math.ceil(parseDuration(duration, field) / 1000));

/** A machine's share of a load config as Artillery phases (null: no config, the script's phases rule). */
export function artilleryPhases(share: LoadConfig): ArtilleryPhase[] | null {
  if (share.stages) {
    let previous = 0;
    return share.stages.map((stage) => {
      const phase: ArtilleryPhase = { duration: seconds(stage.duration, 'stages.duration'), arrivalRate: previous };
      // A constant stage is a plain rate (0 is a pause to Artillery); a change is a linear ramp.
      if (stage.target !== previous) phase.rampTo = stage.target;
      previous = stage.target;
      return phase;
    });
  }
  if (share.vus !== undefined && share.duration) return [{ duration: seconds(share.duration, 'duration'), arrivalRate: share.vus }];
  return null;
}

export function artilleryCommand(assignment: Assignment, binary: string, metricsIntervalS = 1): ToolCommand {
  const env: Record<string, string> = {
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
    LOADPLANE_METRICS_INTERVAL: String(metricsIntervalS),
    // Our plugin, besides any the script names in config.plugins (Artillery merges the two).
    ARTILLERY_PLUGINS: JSON.stringify({ [artilleryPluginName]: {} }),
    ARTILLERY_DISABLE_TELEMETRY: 'true',
    NODE_OPTIONS: `--require ./${artilleryPreloadFile}`,
    // Plain text in the log: no colour codes around `fail:` lines and metric names.
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  const share = assignment.config ? splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount) : null;
  if (share && isIdleShare(share)) {
    // A 0 arrival rate on this machine: it only proves Artillery is there, and completes.
    return { argv: [binary, '--version'], env, files: { [artilleryPreloadFile]: artilleryPreload } };
  }
  const files = {
    [artilleryScriptFile]: assignment.script,
    [artilleryPluginFile]: artilleryMetricsPlugin,
    [artilleryPreloadFile]: artilleryPreload,
  };
  const argv = [binary, 'run'];
  const phases = share ? artilleryPhases(share) : null;
  if (phases) argv.push('--overrides', JSON.stringify({ config: { phases } }));
  argv.push(artilleryScriptFile);
  return { argv, env, files };
}
