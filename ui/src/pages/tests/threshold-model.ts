/**
 * Thresholds of a test as the editor holds them (rows of typed text) and as the API takes them; their units and
 * wording. Exports: thresholdMetrics, thresholdOps, metricLabel, metricUnit, formatLimit, formatActual,
 * describeThreshold, ThresholdRow, newRow, rowsFromThresholds, thresholdsFromRows, sameThresholds, rowProblems.
 * An error rate is shown and typed as a percentage but sent as a fraction (1 % → 0.01).
 */
import type { Threshold } from '../../api/types';
import { formatMs, formatPercent, formatRate } from '../../components/common/formatters';

export type ThresholdMetric = Threshold['metric'];
export type ThresholdOp = Threshold['op'];

export const thresholdMetrics: { value: ThresholdMetric; label: string; unit: string }[] = [
  { value: 'p50', label: 'p50 latency', unit: 'ms' },
  { value: 'p95', label: 'p95 latency', unit: 'ms' },
  { value: 'p99', label: 'p99 latency', unit: 'ms' },
  { value: 'error_rate', label: 'Error rate', unit: '%' },
  { value: 'requests_per_sec', label: 'Requests per second', unit: 'req/s' },
];

export const thresholdOps: { value: ThresholdOp; label: string }[] = [
  { value: '<', label: '< below' },
  { value: '<=', label: '≤ at most' },
  { value: '>', label: '> above' },
  { value: '>=', label: '≥ at least' },
];

const opSymbol: Record<ThresholdOp, string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥' };

export function metricLabel(metric: string): string {
  return thresholdMetrics.find((m) => m.value === metric)?.label ?? metric;
}

export function metricUnit(metric: string): string {
  return thresholdMetrics.find((m) => m.value === metric)?.unit ?? '';
}

/** A figure of a metric for people: milliseconds, a percentage, or requests per second. */
export function formatActual(metric: string, value: number | null | undefined): string {
  if (metric === 'error_rate') return formatPercent(value);
  if (metric === 'requests_per_sec') return formatRate(value);
  return formatMs(value);
}

/** A threshold's limit: "< 500 ms", "≤ 1 %", "≥ 100/s" (the limit as typed, not rounded away). */
export function formatLimit(threshold: Pick<Threshold, 'metric' | 'op' | 'value'>): string {
  const { metric, op, value } = threshold;
  const shown =
    metric === 'error_rate'
      ? `${trimNumber(value * 100)} %`
      : metric === 'requests_per_sec'
        ? `${trimNumber(value)}/s`
        : `${trimNumber(value)} ms`;
  return `${opSymbol[op] ?? op} ${shown}`;
}

/** "p95 latency of health ≤ 500 ms", "Error rate < 1 %". */
export function describeThreshold(threshold: Threshold): string {
  const on = threshold.endpoint ? ` of ${threshold.endpoint}` : '';
  return `${metricLabel(threshold.metric)}${on} ${formatLimit(threshold)}`;
}

function trimNumber(value: number): string {
  return String(Number(value.toPrecision(12)));
}

export interface ThresholdRow {
  /** A stable React key for the row. */
  key: string;
  metric: ThresholdMetric;
  /** Blank: the run's merged figures. */
  endpoint: string;
  op: ThresholdOp;
  /** As typed, in the metric's unit (a percentage for error_rate). */
  value: string;
  abort: boolean;
}

let counter = 0;
const nextKey = () => `threshold-${(counter += 1)}`;

export function newRow(): ThresholdRow {
  return { key: nextKey(), metric: 'p95', endpoint: '', op: '<', value: '', abort: false };
}

export function rowsFromThresholds(thresholds: readonly Threshold[] | null | undefined): ThresholdRow[] {
  return (thresholds ?? []).map((t) => ({
    key: nextKey(),
    metric: t.metric,
    endpoint: t.endpoint ?? '',
    op: t.op,
    value: trimNumber(t.metric === 'error_rate' ? t.value * 100 : t.value),
    abort: t.abort === true,
  }));
}

/** The API's thresholds from the rows: a blank endpoint is left out, a percentage becomes a fraction, abort only when set. */
export function thresholdsFromRows(rows: readonly ThresholdRow[]): Threshold[] {
  return rows.map((row) => {
    const typed = row.value.trim() === '' ? Number.NaN : Number(row.value);
    const value = row.metric === 'error_rate' ? Number((typed / 100).toPrecision(12)) : typed;
    const endpoint = row.endpoint.trim();
    return { metric: row.metric, ...(endpoint ? { endpoint } : {}), op: row.op, value, ...(row.abort ? { abort: true } : {}) };
  });
}

function normalized(thresholds: readonly Threshold[] | null | undefined): string {
  return JSON.stringify(
    (thresholds ?? []).map((t) => [t.metric, t.endpoint?.trim() || null, t.op, t.value, t.abort === true]),
  );
}

/** Whether two threshold lists say the same (order counts: the API keeps it). */
export function sameThresholds(a: readonly Threshold[] | null | undefined, b: readonly Threshold[] | null | undefined): boolean {
  return normalized(a) === normalized(b);
}

export interface RowProblem {
  index: number;
  field: 'value';
  message: string;
}

/** What is wrong with the rows before they are sent (the API checks the rest): a value missing, not a number, negative, or a percentage over 100. */
export function rowProblems(rows: readonly ThresholdRow[]): RowProblem[] {
  const problems: RowProblem[] = [];
  rows.forEach((row, index) => {
    const text = row.value.trim();
    if (text === '') problems.push({ index, field: 'value', message: `Threshold ${index + 1}: enter a value in ${metricUnit(row.metric)}.` });
    else if (!Number.isFinite(Number(text))) problems.push({ index, field: 'value', message: `Threshold ${index + 1}: the value must be a number.` });
    else if (Number(text) < 0) problems.push({ index, field: 'value', message: `Threshold ${index + 1}: the value must not be negative.` });
    else if (row.metric === 'error_rate' && Number(text) > 100)
      problems.push({ index, field: 'value', message: `Threshold ${index + 1}: an error rate is a percentage from 0 to 100.` });
  });
  return problems;
}
