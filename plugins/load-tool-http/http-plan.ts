/**
 * An assignment as the http engine's plan: the script's steps, resolved, and this machine's share of the load config
 * as VU segments (vus + duration: one constant segment; stages: one linear ramp per stage, from the previous target, 0
 * first). Without a load config one VU runs the steps once, as k6 runs a script without options: a quick check of a
 * test, with a request count known in advance.
 */
import { type Assignment, isIdleShare, type LoadConfig, parseDuration, splitLoadConfig } from 'loadplane/plugin';
import type { EnginePlan, LoadSegment, PlannedLoad } from './engine/plan.ts';
import { parseHttpScript } from './http-script.ts';

export const defaultTimeoutMs = 30_000;
export const metricsIntervalMs = 1_000;
// Under the agent's 2 s: the engine's own line (it names the VUs) keeps the log alive, and no agent progress line doubles it.
export const progressIntervalMs = 1_000;

export function loadSegments(share: LoadConfig): LoadSegment[] {
  if (share.stages) {
    let previous = 0;
    return share.stages.map((stage) => {
      const segment = { durationMs: parseDuration(stage.duration, 'stages.duration'), from: previous, to: stage.target };
      previous = stage.target;
      return segment;
    });
  }
  const vus = share.vus ?? 0;
  return [{ durationMs: share.duration ? parseDuration(share.duration) : 0, from: vus, to: vus }];
}

function describe(load: PlannedLoad, share: LoadConfig | null, assignment: Assignment): string {
  const machine = assignment.machineCount > 1 ? ` (machine ${assignment.machineIndex + 1} of ${assignment.machineCount})` : '';
  if (load.kind === 'iterations') return `${load.vus} VU running the steps once (no load config)${machine}`;
  if (share?.stages) return `stages ${share.stages.map((stage) => `${stage.target} VUs over ${stage.duration}`).join(', ')}${machine}`;
  return `${share?.vus ?? 0} VUs for ${share?.duration ?? '0s'}${machine}`;
}

/** The engine's plan for an assignment; throws with the script's problem (the server refused such scripts already). */
export function httpPlan(assignment: Assignment): EnginePlan {
  const parsed = parseHttpScript(assignment.script);
  if (!parsed.ok) throw new Error(parsed.error);
  const share = assignment.config ? splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount) : null;
  let load: PlannedLoad;
  if (!share) load = { kind: 'iterations', vus: 1, iterations: 1 };
  else if (isIdleShare(share)) load = { kind: 'segments', segments: [] };
  else load = { kind: 'segments', segments: loadSegments(share) };
  return {
    steps: parsed.steps,
    load,
    timeoutMs: defaultTimeoutMs,
    metricsIntervalMs,
    progressIntervalMs,
    description: describe(load, share, assignment),
  };
}
