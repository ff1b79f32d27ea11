/**
 * The Gatling command for an assignment: Loadplane's launcher (bin/gatling) compiles the simulation in the work
 * directory (javac or scalac) and runs it with `-nr` (no HTML report). This machine's share of the load config travels as
 * system properties the simulation reads through `Loadplane.closedInjection(...)`: Gatling's injection profile is
 * code in the simulation, so it cannot be set from outside.
 */
import { type Assignment, isIdleShare, parseDuration, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';
import { parseGatlingScript } from './gatling-script.ts';

export const gatlingConfFile = 'gatling.conf';
export const gatlingResultsDir = 'results';

/**
 * gatling.conf (the work directory is on the class path): no warm-up request to gatling.io, no usage analytics, and
 * no simulation.log (it grows with every request) unless the simulation has assertions, which Gatling checks from it.
 */
export function gatlingConf(fileWriter: boolean): string {
  return [
    '# Written by Loadplane for this run.',
    'gatling {',
    '  http.warmUpUrl = ""',
    '  data.enableAnalytics = false',
    `  data.writers = [${fileWriter ? 'console, file' : 'console'}]`,
    '}',
    '',
  ].join('\n');
}

/** -D arguments for the launcher: the machine's place, and its share of the load config (durations in ms). */
export function loadProperties(assignment: Assignment): string[] {
  const properties = [
    `-Dloadplane.taskId=${assignment.taskId}`,
    `-Dloadplane.machineIndex=${assignment.machineIndex}`,
    `-Dloadplane.machineCount=${assignment.machineCount}`,
  ];
  if (!assignment.config) return properties;
  const share = splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount);
  if (share.stages) {
    properties.push(`-Dloadplane.stages=${share.stages.map((stage) => `${parseDuration(stage.duration)}:${stage.target}`).join(',')}`);
  } else if (share.vus !== undefined && share.duration) {
    properties.push(`-Dloadplane.vus=${share.vus}`, `-Dloadplane.durationMs=${parseDuration(share.duration)}`);
  }
  return properties;
}

export function gatlingCommand(assignment: Assignment, launcher: string): ToolCommand {
  const env = {
    LOADPLANE_TASK_ID: assignment.taskId,
    LOADPLANE_MACHINE_INDEX: String(assignment.machineIndex),
    LOADPLANE_MACHINE_COUNT: String(assignment.machineCount),
  };
  const simulation = parseGatlingScript(assignment.script);
  // The server refused invalid scripts; a name javac accepts keeps the agent's command well-formed all the same.
  const className = typeof simulation === 'string' ? 'Simulation' : simulation.className;
  const sourceFile = `${className}.${typeof simulation === 'string' ? 'java' : simulation.language}`;
  const files = { [sourceFile]: assignment.script, [gatlingConfFile]: gatlingConf(typeof simulation !== 'string' && simulation.hasAssertions) };
  if (assignment.config && isIdleShare(splitLoadConfig(assignment.config, assignment.machineIndex, assignment.machineCount))) {
    // Fewer users than machines: this one starts no JVM worth a run, and completes.
    return { argv: [launcher, '--idle'], env, files };
  }
  const qualifiedName = typeof simulation === 'string' ? className : simulation.qualifiedName;
  return { argv: [launcher, ...loadProperties(assignment), '.', '-s', qualifiedName, '-rf', gatlingResultsDir, '-nr'], env, files };
}
