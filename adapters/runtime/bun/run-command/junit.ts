/**
 * The JUnit XML report of a run (`loadplane run --wait --junit FILE`), the format CI servers show as test results
 * (GitLab's `artifacts:reports:junit`, GitHub test-report actions, Jenkins): one testsuite named after the test, one
 * testcase per threshold (`p95 < 200`, `p95 of checkout < 200`) with a `<failure>` naming the actual figure and the
 * limit when it failed. A run without threshold results (the test has none, or the run ended before they were checked)
 * gets one testcase for the run itself, failed unless the run completed; so does a run that failed or was cancelled
 * for a reason of its own while its thresholds held, so a red run is never a green report.
 */
import { durationSeconds, formatActual, thresholdName } from './run-report.ts';
import type { TaskRecord } from './run-types.ts';

export interface JunitInput {
  task: TaskRecord;
  testName: string;
  runUrl: string;
}

/** Characters XML 1.0 cannot hold at all (control characters but tab and line ends, lone surrogates, U+FFFE/F). */
// eslint-disable-next-line no-control-regex
const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text or an attribute value, escaped (quotes too) and with what XML cannot carry replaced by U+FFFD. */
export function xmlEscape(text: string): string {
  return text
    .replace(notXml, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/** Element text: escaped like an attribute, but line ends kept as they are (readable in a report). */
const xmlText = (text: string) => xmlEscape(text).replace(/&#10;/g, '\n').replace(/&#9;/g, '\t');

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');

/** JUnit's timestamp: ISO 8601 without a zone (the Ant schema's form), in UTC. */
const junitTimestamp = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 19) : new Date().toISOString().slice(0, 19));

interface Case {
  name: string;
  failure: { message: string; type: string; detail: string } | null;
}

/** Whether the run ended badly for a reason besides its thresholds (or without them being checked). */
function runCase(task: TaskRecord): Case | null {
  const thresholdsChecked = task.threshold_results.length > 0;
  if (task.status === 'completed') return thresholdsChecked ? null : { name: 'run completed', failure: null };
  if (thresholdsChecked && task.status === 'failed' && task.verdict === 'failed' && /^thresholds failed:/.test(task.error ?? '')) return null;
  const message = `the run ended ${task.status}${task.error ? `: ${task.error}` : ''}`;
  return { name: 'run completed', failure: { message, type: `run ${task.status}`, detail: message } };
}

export function junitReport({ task, testName, runUrl }: JunitInput): string {
  const cases: Case[] = [];
  const run = runCase(task);
  if (run) cases.push(run);
  for (const result of task.threshold_results) {
    const name = thresholdName(result);
    const message = `actual ${formatActual(result.actual)}, limit ${result.op} ${result.value}`;
    cases.push({ name, failure: result.ok ? null : { message, type: 'threshold', detail: `${name} failed: ${message}` } });
  }
  const seconds = (durationSeconds(task.started_at, task.finished_at) ?? 0).toFixed(3);
  const failures = cases.filter((c) => c.failure).length;
  const timestamp = junitTimestamp(task.started_at ?? task.created_at);
  const classname = `loadplane.${testName}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'loadplane', tests: cases.length, failures, errors: 0, time: seconds, timestamp })}>`,
    `  <testsuite${attributes({ name: testName, tests: cases.length, failures, errors: 0, skipped: 0, time: seconds, timestamp })}>`,
    '    <properties>',
    ...Object.entries({
      run_id: task.id,
      public_id: task.public_id,
      test_id: task.test_id,
      status: task.status,
      verdict: task.verdict ?? 'none',
      url: runUrl,
    }).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    ...cases.map((c) => {
      const open = `    <testcase${attributes({ classname, name: c.name, time: seconds })}`;
      if (!c.failure) return `${open}/>`;
      return `${open}>\n      <failure${attributes({ message: c.failure.message, type: c.failure.type })}>${xmlText(c.failure.detail)}</failure>\n    </testcase>`;
    }),
    `    <system-out>${xmlText(`run ${task.id} (public id ${task.public_id}): ${task.status}\n${runUrl}${task.error ? `\n${task.error}` : ''}`)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}
