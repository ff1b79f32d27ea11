/**
 * One calibration: the `http` tool's engine, through the same run path as an assignment, against a loopback target of
 * the agent's own, a few VUs for a few seconds; its figure is the successful requests per second. The target lives on
 * the machine itself, so the figure is what the machine can generate (engine and target share its cores: a floor, not a
 * ceiling, of what it sends to a remote target), never what some network in between allows.
 */
import type { Assignment, LoadTool } from '../capabilities/load-tool.ts';
import type { StartLoopbackTarget } from '../ports/loopback-target.ts';
import type { ProcessRunner } from '../ports/process-runner.ts';
import { runAssignment } from './run-assignment.ts';

export interface CalibrationSettings {
  /** The host's loopback target (adapters/agent/loopback-target.ts). */
  target: StartLoopbackTarget;
  /** Default 4: enough to keep a core or two busy, little enough for a small VM. */
  vus?: number;
  /** Default 3,000: long enough to smooth the engine's start, short enough to go unnoticed. */
  durationMillis?: number;
}

export interface Calibration {
  requests_per_sec: number;
  vus: number;
  duration_ms: number;
}

export const defaultCalibrationVus = 4;
export const defaultCalibrationMillis = 3_000;

/** The assignment a calibration runs: one GET of the target, again and again; ids that no task has. */
export function calibrationAssignment(url: string, vus: number, durationMillis: number): Assignment {
  return {
    assignmentId: 'calibration',
    taskId: 'calibration',
    testId: 'calibration',
    tool: 'http',
    script: JSON.stringify({ steps: [{ name: 'calibration', method: 'GET', url: `${url}/`, expect: { status: 200 } }] }),
    config: { vus, duration: `${durationMillis}ms` },
    machineIndex: 0,
    machineCount: 1,
  };
}

/**
 * Runs one calibration; null when it could not measure (cancelled, the engine failed, nothing answered): the agent then
 * reports nothing rather than a figure that would mislead.
 */
export async function calibrate(options: {
  tool: LoadTool;
  runner: ProcessRunner;
  baseEnv: Record<string, string>;
  settings: CalibrationSettings;
  signal: AbortSignal;
}): Promise<Calibration | null> {
  const vus = options.settings.vus ?? defaultCalibrationVus;
  const durationMillis = options.settings.durationMillis ?? defaultCalibrationMillis;
  const target = await options.settings.target();
  try {
    if (options.signal.aborted) return null;
    // No onLog or onMetrics: a calibration is not a task, so none of its lines or points go anywhere.
    const result = await runAssignment({
      tool: options.tool,
      assignment: calibrationAssignment(target.url, vus, durationMillis),
      runner: options.runner,
      signal: options.signal,
      baseEnv: options.baseEnv,
      // A cancelled calibration makes way for a run at once: no grace for a summary nobody reads.
      killGraceMs: 0,
    });
    if (options.signal.aborted || result.outcome.status !== 'completed') return null;
    const succeeded = result.summary.requests - result.summary.errors;
    if (succeeded <= 0) return null;
    // Over the planned duration: the engine starts no request after it, so that is the window the requests filled.
    return { requests_per_sec: Math.round((succeeded / (durationMillis / 1000)) * 10) / 10, vus, duration_ms: durationMillis };
  } finally {
    await target.stop().catch(() => {});
  }
}
