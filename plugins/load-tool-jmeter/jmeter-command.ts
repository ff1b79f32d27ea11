/**
 * The JMeter command for an assignment: non-GUI (`-n`) on the plan with this machine's share of the load written into
 * its thread groups, the log on stderr, and the results as a minimal JTL CSV (`timeStamp,elapsed,success`, no header)
 * on stdout. `sh` gives JMeter a pipe as fd 3 (`-l /dev/fd/3`) that a relay copies to stdout in batches, and sends JMeter's own
 * stdout to stderr, so stdout carries samples only: the agent reads them as they come and nothing on disk grows with
 * the requests. (The pipe is needed: the agent's stdout may be a socket, which /dev/fd/N cannot reopen.)
 */
import { type Assignment, isIdleShare, splitLoadConfig, type ToolCommand } from 'loadplane/plugin';
import { applyLoadShare } from './jmx-load.ts';

export const jmeterPlanFile = 'plan.jmx';
export const jmeterLogConfigFile = 'log4j2.xml';

/** JMeter's log4j2 configuration: everything at INFO and above to stderr, one line per event. */
export const jmeterLogConfig = `<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="warn">
  <Appenders><Console name="stderr" target="SYSTEM_ERR"><PatternLayout pattern="%p %c{1}: %m%n"/></Console></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="stderr"/></Root></Loggers>
</Configuration>
`;

/** `-J` properties: the JTL's columns, and what non-GUI JMeter does besides the plan. */
export const jmeterProperties: Readonly<Record<string, string>> = {
  'jmeter.save.saveservice.output_format': 'csv',
  'jmeter.save.saveservice.print_field_names': 'false',
  'jmeter.save.saveservice.timestamp_format': 'ms',
  // Off: every column but timeStamp, elapsed and success (a line is ~25 bytes, nothing quoted to unescape).
  ...Object.fromEntries(
    [
      'label', 'response_code', 'response_message', 'thread_name', 'data_type', 'assertion_results_failure_message', 'bytes', 'sent_bytes',
      'thread_counts', 'url', 'latency', 'connect_time', 'idle_time', 'sample_count', 'hostname', 'filename', 'encoding',
    ].map((field) => [`jmeter.save.saveservice.${field}`, 'false']),
  ),
  'jmeter.save.saveservice.time': 'true',
  'jmeter.save.saveservice.successful': 'true',
  // One line per top-level sample: a redirect's or a transaction's sub-samples are not extra requests.
  'jmeter.save.saveservice.subresults': 'false',
  // Each sample is written at once, so interval metrics are live; a pipe write costs far less than the sample itself.
  'jmeter.save.saveservice.autoflush': 'true',
  // The summariser's lines come through the log already; not twice on stdout.
  'summariser.out': 'false',
  // No UDP shutdown port: several agents on one machine, and the sandbox, need none; cancel is a signal.
  'jmeterengine.nongui.port': '0',
  // The JVM exits when the test ends, even if a plan left a non-daemon thread behind.
  'jmeterengine.force.system.exit': 'true',
};

/** The file the wrapper keeps JMeter's exit status in: a pipeline's own status is its last command's. */
export const jmeterExitFile = 'jmeter.exit';

/**
 * Copies the JTL pipe to stdout in batches: whatever arrived, then a 100 ms pause unless much did. JMeter flushes
 * each sample (live metrics) and a write to a pipe costs it little, but every small read wakes the agent, which then
 * competes with the JVM for the CPU; batching bounds the wake-ups to about 10 a second while samples are at most
 * ~100 ms late. A busy run (16 KiB or more per read) is read without pauses, and the pipe is enlarged to 1 MiB
 * (F_SETPIPE_SZ, 1031) so a slow reader downstream does not stall JMeter's (synchronized) result writer.
 * perl is on every Debian/Ubuntu (perl-base is essential); without it, plain `cat`.
 */
export const jtlRelay =
  "if command -v perl >/dev/null 2>&1; then exec perl -e 'fcntl(STDIN, 1031, 1 << 20); $| = 1; while (sysread(STDIN, my $b, 1 << 20)) { print $b; select(undef, undef, undef, 0.1) if length($b) < 16384 }'; else exec cat; fi";

/**
 * Runs `argv` with fd 3 = a pipe relayed to stdout (the JTL) and stdout joined to stderr (JMeter's console lines),
 * exiting with JMeter's status.
 */
export const resultsOnStdout = [
  '/bin/sh',
  '-c',
  `{ "$0" "$@" 3>&1 1>&2; echo "$?" >${jmeterExitFile}; } | (${jtlRelay}); exit "$(cat ${jmeterExitFile} 2>/dev/null || echo 1)"`,
];

export function jmeterCommand(assignment: Assignment, binary: string): ToolCommand {
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
    if (isIdleShare(share)) return { argv: [...resultsOnStdout, binary, '--version'], env };
    plan = applyLoadShare(plan, share);
  }
  const properties = Object.entries(jmeterProperties).map(([name, value]) => `-J${name}=${value}`);
  const machine = [`-Jloadplane.machine_index=${assignment.machineIndex}`, `-Jloadplane.machine_count=${assignment.machineCount}`];
  return {
    argv: [...resultsOnStdout, binary, '-n', '-t', jmeterPlanFile, '-l', '/dev/fd/3', '-i', jmeterLogConfigFile, ...properties, ...machine],
    env,
    files: { [jmeterPlanFile]: plan, [jmeterLogConfigFile]: jmeterLogConfig },
  };
}
