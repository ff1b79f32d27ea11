/**
 * The JMeter command for an assignment: non-GUI (`-n`) on the plan with this machine's share of the load written into
 * its thread groups, and the log on stderr. With Loadplane's listener (our JMeter build has it) the plan gets the
 * listener and JMeter's stdout carries its console lines and one `@loadplane-metrics` line a second; without it, the
 * samples come as a JTL stream (jtl-output.ts).
 */
import { type Assignment, isIdleShare, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';
import { applyLoadShare } from './jmx-load.ts';
import { jtlArguments, resultsOnStdout } from './jtl-output.ts';
import { withMetricsListener } from './metrics-listener.ts';

export const jmeterPlanFile = 'plan.jmx';
export const jmeterLogConfigFile = 'log4j2.xml';

/** JMeter's log4j2 configuration: everything at INFO and above to stderr, one line per event. */
export const jmeterLogConfig = `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="warn">
  <Appenders><Console name="stderr" target="SYSTEM_ERR"><PatternLayout pattern="%p %c{1}: %m%n"/></Console></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="stderr"/></Root></Loggers>
</Configuration>
`;

/** `-J` properties: what non-GUI JMeter does besides the plan. */
export const jmeterProperties: Readonly<Record<string, string>> = {
  // The summariser's lines come through the log already; not twice on stdout.
  'summariser.out': 'false',
  // No UDP shutdown port: several agents on one machine, and the sandbox, need none; cancel is a signal.
  'jmeterengine.nongui.port': '0',
  // The JVM exits when the test ends, even if a plan left a non-daemon thread behind.
  'jmeterengine.force.system.exit': 'true',
};

export interface JmeterCommandOptions {
  /** The JMeter has Loadplane's listener (lib/ext/loadplane-metrics.jar): metrics are counted in the JVM. */
  metricsListener?: boolean;
}

export function jmeterCommand(assignment: Assignment, binary: string, options: JmeterCommandOptions = {}): ToolCommand {
  const wrapper = options.metricsListener ? [] : resultsOnStdout;
  const env: Record<string, string> = {
    // Plans read them with ${__env(...)} only through plugins; they are here for JSR223 code (System.getenv).
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
  };
  let plan = assignment.script;
  if (assignment.config) {
    const share = splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount);
    // Fewer VUs than machines: this machine only proves JMeter is there (JMeter would run a 0-thread group for nothing).
    if (isIdleShare(share)) return { argv: [...wrapper, binary, '--version'], env };
    plan = applyLoadShare(plan, share);
  }
  const properties = Object.entries(jmeterProperties).map(([name, value]) => `-J${name}=${value}`);
  const machine = [`-Jloadplane.machine_index=${assignment.machineIndex}`, `-Jloadplane.machine_count=${assignment.machineCount}`];
  const results = options.metricsListener ? [] : jtlArguments();
  return {
    argv: [...wrapper, binary, '-n', '-t', jmeterPlanFile, '-i', jmeterLogConfigFile, ...results, ...properties, ...machine],
    env,
    files: { [jmeterPlanFile]: options.metricsListener ? withMetricsListener(plan) : plan, [jmeterLogConfigFile]: jmeterLogConfig },
  };
}
