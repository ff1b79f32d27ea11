/**
 * What hey runs for an assignment: this machine's share of the script's requests, or of the task's load config, as
 * one or more hey runs one after the other (hey cannot ramp, so stages become steps), each printing CSV results.
 */
import { type Assignment, isIdleShare, machineShare, parseDuration, splitLoadConfig, type ToolCommand } from '@loadplane/plugin-kit';
import { type HeyScript, parseHeyScript } from './hey-script.ts';

export const bodyFile = 'body.txt';
export const stepsFile = 'steps.sh';

/** One hey run: workers, and either a request count (-n) or a duration (-z); or a pause (a stage at 0). */
export type HeyStep = { workers: number; requests: number } | { workers: number; duration: string } | { pauseMs: number };

export interface HeyPlan {
  script: HeyScript;
  steps: HeyStep[];
  /** How many requests the steps send in all, when they are counted (no duration): the missing CSV rows are errors. */
  expectedRequests: number | null;
}

/** This machine's steps. hey sends requests/workers per worker and drops the remainder, so a remainder is a step of its own. */
export function heyPlan(assignment: Assignment): HeyPlan {
  const script = parseHeyScript(assignment.script);
  const { machineIndex: index, machineCount: count } = assignment;
  if (assignment.config) {
    const share = splitLoadConfig(assignment.config, index, count);
    if (isIdleShare(share)) return { script, steps: [], expectedRequests: null };
    if (!share.stages) return { script, steps: [{ workers: share.vus!, duration: share.duration! }], expectedRequests: null };
    const steps = share.stages.map((stage): HeyStep => (stage.target > 0 ? { workers: stage.target, duration: stage.duration } : { pauseMs: parseDuration(stage.duration) }));
    return { script, steps, expectedRequests: null };
  }
  if (script.duration) {
    const workers = machineShare(script.concurrency, index, count);
    return { script, steps: workers > 0 ? [{ workers, duration: script.duration }] : [], expectedRequests: null };
  }
  const requests = machineShare(script.requests, index, count);
  const workers = Math.min(requests, Math.max(1, machineShare(script.concurrency, index, count)));
  if (requests === 0) return { script, steps: [], expectedRequests: 0 };
  const even = Math.floor(requests / workers) * workers;
  const steps: HeyStep[] = [{ workers, requests: even }];
  if (requests > even) steps.push({ workers: requests - even, requests: requests - even });
  return { script, steps, expectedRequests: requests };
}

function stepArgs(binary: string, script: HeyScript, step: Exclude<HeyStep, { pauseMs: number }>): string[] {
  return [
    binary,
    ...('requests' in step ? ['-n', String(step.requests)] : ['-z', step.duration]),
    '-c', String(step.workers),
    '-o', 'csv',
    '-m', script.method,
    '-t', String(script.timeout),
    ...(script.rate > 0 ? ['-q', String(script.rate)] : []),
    ...Object.entries(script.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    ...(script.body !== undefined ? ['-D', bodyFile] : []),
    script.url,
  ];
}

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

export function heyCommand(assignment: Assignment, binary: string): ToolCommand {
  const { script, steps } = heyPlan(assignment);
  const files: Record<string, string> = script.body !== undefined ? { [bodyFile]: script.body } : {};
  if (steps.length === 0) return { argv: ['sh', '-c', 'echo "hey: nothing to send from this machine (its share of the load is 0)"'], files };
  const only = steps[0]!;
  if (steps.length === 1 && !('pauseMs' in only)) return { argv: stepArgs(binary, script, only), files };
  // Several steps: a small shell script runs them in order and stops at the first that fails.
  const lines = steps.map((step) => ('pauseMs' in step ? `sleep ${step.pauseMs / 1000}` : stepArgs(binary, script, step).map(quote).join(' ')));
  return { argv: ['sh', stepsFile], files: { ...files, [stepsFile]: `set -e\n${lines.join('\n')}\n` } };
}
