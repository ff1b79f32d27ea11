/** The custom tool's command: the script as an executable file (its shebang, else `sh`) and the run's facts as env. */
import { type Assignment, configDurationMs, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';

/** The env a script sees: which task, which machine of how many, and this machine's share of the load config. */
export function customEnv(assignment: Assignment): Record<string, string> {
  const env: Record<string, string> = {
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_TEST_ID: assignment.testId,
    LOADPLANE_ASSIGNMENT_ID: assignment.assignmentId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
  };
  if (!assignment.config) return env;
  const share = splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount);
  if (share.stages) {
    // A script that cannot follow stages can still run at the peak for the total time.
    env.LOADPLANE_VUS = String(Math.max(...share.stages.map((stage) => stage.target)));
    env.LOADPLANE_STAGES = JSON.stringify(share.stages);
  } else if (share.vus !== undefined) {
    env.LOADPLANE_VUS = String(share.vus);
  }
  const durationMs = configDurationMs(share);
  if (durationMs > 0) env.LOADPLANE_DURATION_SECONDS = String(durationMs / 1000);
  return env;
}

export function customCommand(assignment: Assignment): ToolCommand {
  const env = customEnv(assignment);
  if (assignment.script.startsWith('#!')) {
    // `./script` tells the agent to write it with mode 0700 and run it directly, so the kernel honours the shebang.
    return { argv: ['./script'], files: { script: assignment.script }, env };
  }
  return { argv: ['sh', 'script.sh'], files: { 'script.sh': assignment.script }, env };
}
