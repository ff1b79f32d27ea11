/**
 * The http tool's command: the engine (a module of this plugin, run by the agent's own runtime) on `plan.json`, the
 * assignment's plan written into the run's work directory.
 */
import type { Assignment, ToolCommand } from 'loadplane/plugin';
import { httpPlan } from './http-plan.ts';

export const planFile = 'plan.json';

/** `engine`: the argv prefix that runs the engine module (the host's module runtime answers it). */
export function httpCommand(assignment: Assignment, engine: readonly string[]): ToolCommand {
  return {
    argv: [...engine, planFile],
    files: { [planFile]: JSON.stringify(httpPlan(assignment)) },
    env: {
      LOADPLANE_TASK_ID: assignment.taskId,
      LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
      LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
    },
  };
}
