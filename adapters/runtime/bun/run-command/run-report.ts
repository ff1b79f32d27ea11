/**
 * What `loadplane run --wait` prints on stdout once a run ended: its figures, the per-endpoint table, each threshold
 * with its actual figure and limit, the verdict, and (with --compare) the changes against another run. Plain text for
 * a CI log: fixed columns, no colours.
 */
import { describeThreshold, type Threshold } from '../../../../core/domain/thresholds.ts';
import { type Changes, type Comparison, comparedFigures, type ComparedFigure, type EndpointFigures, type Figures, type TaskRecord, type ThresholdResultView } from './run-types.ts';

/** `p95 < 200`, `p95 of checkout < 200`: the words the service uses in a run's `error`. */
export const thresholdName = (threshold: ThresholdResultView): string => describeThreshold(threshold as unknown as Threshold);

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** A figure as thresholds state it: milliseconds, a fraction, requests per second (up to 3 decimals). */
export const formatActual = (actual: number | null): string => (actual === null ? 'not measured' : String(round(actual, 3)));

const ms = (value: number | null | undefined) => (value === null || value === undefined ? '-' : round(value, 1).toFixed(1));
const percent = (fraction: number | null | undefined) => (fraction === null || fraction === undefined ? '-' : `${round(fraction * 100, 2).toFixed(2)} %`);
const rate = (value: number | null | undefined) => (value === null || value === undefined ? '-' : round(value, 1).toFixed(1));
const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** Seconds between two timestamps, or null when either is missing. */
export function durationSeconds(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const seconds = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** Columns padded to their widest cell: the first left-aligned, the others right-aligned (numbers) unless `leftAligned`. */
export function table(rows: readonly (readonly string[])[], indent = '  ', leftAligned = false): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => indent + row.map((cell, i) => (i === 0 || leftAligned ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd())
    .join('\n');
}

export interface ReportInput {
  task: TaskRecord;
  testName: string;
  runUrl: string;
  /** Null when the service could not give them (an older service); empty when the run measured none. */
  endpoints: EndpointFigures[] | null;
}

function verdictLine(task: TaskRecord): string {
  if (task.verdict === 'passed') return 'verdict: passed';
  if (task.verdict === 'failed') return 'verdict: failed';
  if (task.status === 'completed') return 'verdict: none (the test has no thresholds): the run completed';
  return `verdict: none (the run ended ${task.status} before its thresholds were checked)`;
}

export function formatReport({ task, testName, runUrl, endpoints }: ReportInput): string {
  const lines: string[] = [];
  lines.push(`run ${task.id} (public id ${task.public_id}) of test "${testName}": ${task.status}`);
  lines.push(`  ${runUrl}`);
  const duration = durationSeconds(task.started_at, task.finished_at);
  const figures: [string, string][] = [
    ['duration', duration === null ? '-' : `${round(duration, 1).toFixed(1)} s`],
    ['requests', `${count(task.total_requests)} (${rate(task.requests_per_sec)}/s)`],
    ['error rate', percent(task.error_rate)],
    ['latency ms', `p50 ${ms(task.p50)}  p95 ${ms(task.p95)}  p99 ${ms(task.p99)}`],
    ...(task.error ? [['error', task.error] as [string, string]] : []),
  ];
  for (const [label, value] of figures) lines.push(`  ${label.padEnd(12)}${value}`);
  lines.push('');
  if (endpoints === null) {
    lines.push('endpoints: the service gave no per-endpoint figures (GET /tasks/{id}/endpoints)');
  } else if (endpoints.length === 0) {
    lines.push('endpoints: none measured');
  } else {
    lines.push('endpoints:');
    lines.push(
      table([
        ['name', 'requests', 'errors', 'error rate', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
        ...endpoints.map((e) => [e.name, count(e.requests), count(e.errors), percent(e.error_rate), rate(e.requests_per_sec), ms(e.p50), ms(e.p95), ms(e.p99), ms(e.max)]),
      ]),
    );
  }
  lines.push('');
  if (task.threshold_results.length > 0) {
    lines.push('thresholds:');
    lines.push(
      table(
        task.threshold_results.map((result) => [result.ok ? 'ok' : 'FAIL', thresholdName(result), `actual ${formatActual(result.actual)}`, `limit ${result.op} ${result.value}`]),
        '  ',
        true,
      ),
    );
  } else {
    lines.push('thresholds: none');
  }
  lines.push(verdictLine(task));
  return lines.join('\n');
}

const figureLabels: Record<ComparedFigure, string> = {
  p50: 'p50 ms',
  p95: 'p95 ms',
  p99: 'p99 ms',
  error_rate: 'error rate',
  requests_per_sec: 'requests/s',
};

function figure(name: ComparedFigure, value: number | null | undefined): string {
  if (name === 'error_rate') return percent(value);
  return name === 'requests_per_sec' ? rate(value) : ms(value);
}

/** A relative change as a signed percentage: +12.0 %, -3.5 %; `-` when there is none (a base of 0). */
export function change(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const pct = round(value * 100, 1);
  return `${pct > 0 ? '+' : ''}${pct.toFixed(1)} %`;
}

const runName = (figures: Figures, fallback: string) => figures.public_id ?? figures.id ?? fallback;

export function formatComparison(comparison: Comparison, against: string): string {
  const base = comparison.base ?? {};
  const current = comparison.current ?? {};
  const changes: Changes = comparison.changes ?? {};
  const lines = [`compared with ${against === 'baseline' ? 'the baseline, ' : ''}run ${runName(base, against)} (changes relative to it: +10.0 % is 10 % higher):`];
  lines.push(
    table([
      ['figure', 'base', 'this run', 'change'],
      ...comparedFigures.map((name) => [figureLabels[name], figure(name, base[name]), figure(name, current[name]), change(changes[name])]),
    ]),
  );
  const endpoints = comparison.endpoints ?? [];
  if (endpoints.length > 0) {
    lines.push('endpoints (change against the base run):');
    lines.push(
      table([
        ['name', ...comparedFigures.map((name) => figureLabels[name])],
        ...endpoints.map((endpoint) => [endpoint.name, ...comparedFigures.map((name) => change(endpoint.changes?.[name]))]),
      ]),
    );
  }
  return lines.join('\n');
}
