/**
 * The fallback for a JMeter without Loadplane's listener (a JMETER_BIN of the operator's own): the samples leave
 * JMeter as a minimal JTL CSV (`timeStamp,elapsed,success`, no header) that the agent reads line by line. `sh` gives
 * JMeter a pipe as fd 3 (`-l /dev/fd/3`) that a relay copies to stdout in batches, and sends JMeter's own stdout to
 * stderr, so stdout carries samples only and nothing on disk grows with the requests. (The pipe is needed: the agent's
 * stdout may be a socket, which /dev/fd/N cannot reopen.) Costs JMeter a line per request: the listener does not.
 */

/** `-J` properties for the JTL: its columns, and each sample written at once. */
export const jtlProperties: Readonly<Record<string, string>> = {
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

/** The JTL's arguments for a JMeter command: results to the relayed pipe, with the columns above. */
export const jtlArguments = (): string[] => ['-l', '/dev/fd/3', ...Object.entries(jtlProperties).map(([name, value]) => `-J${name}=${value}`)];
