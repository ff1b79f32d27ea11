/**
 * What the model says a task's final status must be, from what the test did to it, what its agents reported and the
 * thresholds of its test.
 */
import type { FinalStatus, TaskModel } from './run-model-world.ts';

export interface Expectation {
  /** The status the task must end in (and reach soon), when the model knows it. */
  determined: FinalStatus | null;
  /** Terminal statuses the server may show now although the model cannot tell yet (an agent was away past the grace). */
  allowed: ReadonlySet<string>;
}

const none: ReadonlySet<string> = new Set();

export function expectationOf(task: TaskModel): Expectation {
  if (task.cancelledByApi) return { determined: 'cancelled', allowed: new Set(['cancelled']) };
  const assignments = [...task.assignments.values()];
  if (assignments.some((a) => a.outcome === 'start-failed')) return { determined: 'failed', allowed: new Set(['failed']) };
  const needed = task.requested?.length ?? 1;
  if (assignments.length >= needed && assignments.every((a) => a.outcome !== null)) {
    // A run its machines completed still fails when its thresholds do (the `fail` gate never holds).
    const status: FinalStatus = assignments.every((a) => a.outcome === 'completed') && task.gate !== 'fail' ? 'completed' : 'failed';
    return { determined: status, allowed: new Set([status]) };
  }
  // An agent that was away may have been given up on (grace expired): the run fails, whatever else goes on.
  if (task.awayRisk.size > 0 || assignments.some((a) => a.outcome === 'lost' || a.away)) return { determined: null, allowed: new Set(['failed']) };
  return { determined: null, allowed: none };
}
