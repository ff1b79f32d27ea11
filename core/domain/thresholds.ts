/**
 * Thresholds of a test: pass/fail conditions on a run's merged figures (`p95 < 200`, `error_rate <= 0.01`), checked by
 * the control plane during the run (an `abort` one that fails stops it) and at its end, where they give the verdict.
 * Pure rules only: validation with messages that name the item and field, evaluation, the verdict and its words.
 */
import type { RunFigures } from './metrics/merge-summaries.ts';
import { badRequest } from '../kernel/errors.ts';

export const thresholdMetrics = ['p50', 'p95', 'p99', 'error_rate', 'requests_per_sec'] as const;
export const thresholdOps = ['<', '<=', '>', '>='] as const;
export type ThresholdMetric = (typeof thresholdMetrics)[number];
export type ThresholdOp = (typeof thresholdOps)[number];

export interface Threshold {
  metric: ThresholdMetric;
  /** An endpoint's name (a step of the `http` tool, a k6 request name...): checked on that endpoint's figures. */
  endpoint?: string;
  op: ThresholdOp;
  /** Milliseconds for p50/p95/p99, a fraction 0..1 for error_rate, requests per second for requests_per_sec. */
  value: number;
  /** Stop the run as soon as this threshold fails while it runs. */
  abort?: boolean;
}

export interface ThresholdResult extends Threshold {
  /** The measured figure; null when there is none (an endpoint without figures, a latency of a run without requests). */
  actual: number | null;
  ok: boolean;
}

export type Verdict = 'passed' | 'failed';

/** The figures thresholds are checked on: the run's, and each endpoint's by name. */
export interface ThresholdFigures {
  total: RunFigures;
  endpoints: ReadonlyMap<string, RunFigures>;
}

export const maxThresholds = 50;
export const maxEndpointNameLength = 200;

/**
 * Seconds of measured data a live check needs before it looks at a requests_per_sec threshold: the first intervals'
 * rate is noise (a ramp, a slow first connection), and a run must not be aborted on it.
 */
export const liveRateWarmupSeconds = 5;

const keys = new Set(['metric', 'endpoint', 'op', 'value', 'abort']);

/**
 * A test's thresholds from a request: null or absent is none. Each problem names the item and the field
 * (`thresholds[2].op`), so a client can point at it.
 */
export function checkThresholds(input: unknown): Threshold[] {
  if (input === undefined || input === null) return [];
  const fail = (field: string, problem: string) => badRequest(`${field} ${problem}`, { field });
  if (!Array.isArray(input)) throw fail('thresholds', 'must be an array');
  if (input.length > maxThresholds) throw fail('thresholds', `has ${input.length} items; at most ${maxThresholds} are allowed`);
  return input.map((item: unknown, index): Threshold => {
    const at = `thresholds[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw fail(at, 'must be an object {metric, op, value, endpoint?, abort?}');
    const record = item as Record<string, unknown>;
    const unknownKey = Object.keys(record).find((key) => !keys.has(key));
    if (unknownKey !== undefined) throw fail(`${at}.${unknownKey}`, 'is not a threshold field (metric, endpoint, op, value, abort)');
    const { metric, endpoint, op, value, abort } = record;
    if (typeof metric !== 'string' || !(thresholdMetrics as readonly string[]).includes(metric)) {
      throw fail(`${at}.metric`, `must be one of ${thresholdMetrics.join(', ')} (got ${JSON.stringify(metric) ?? 'nothing'})`);
    }
    if (typeof op !== 'string' || !(thresholdOps as readonly string[]).includes(op)) {
      throw fail(`${at}.op`, `must be one of ${thresholdOps.join(', ')} (got ${JSON.stringify(op) ?? 'nothing'})`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fail(`${at}.value`, `must be a finite number (got ${JSON.stringify(value) ?? 'nothing'})`);
    if (value < 0) throw fail(`${at}.value`, `must not be negative (got ${value})`);
    if (metric === 'error_rate' && value > 1) throw fail(`${at}.value`, `is an error rate: a fraction from 0 to 1 (got ${value})`);
    if (endpoint !== undefined && endpoint !== null) {
      if (typeof endpoint !== 'string' || endpoint.trim().length === 0) throw fail(`${at}.endpoint`, 'must be an endpoint name, not blank');
      if (endpoint.length > maxEndpointNameLength) throw fail(`${at}.endpoint`, `must be at most ${maxEndpointNameLength} characters`);
    }
    if (abort !== undefined && abort !== null && typeof abort !== 'boolean') throw fail(`${at}.abort`, 'must be true or false');
    return {
      metric: metric as ThresholdMetric,
      ...(typeof endpoint === 'string' ? { endpoint: endpoint.trim() } : {}),
      op: op as ThresholdOp,
      value,
      ...(abort === true ? { abort: true } : {}),
    };
  });
}

/** Thresholds as stored (jsonb, maybe read back as text); anything unreadable counts as none. */
export function storedThresholds(value: unknown): Threshold[] {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  return Array.isArray(parsed) ? (parsed as Threshold[]) : [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A figure of `figures` for a metric; latencies and the error rate of a run without requests are not measured (null). */
function figureOf(figures: RunFigures, metric: ThresholdMetric): number | null {
  if (metric === 'requests_per_sec') return figures.requestsPerSec;
  if (figures.totalRequests <= 0) return null;
  if (metric === 'error_rate') return figures.errorRate;
  return figures[metric];
}

function holds(actual: number, op: ThresholdOp, value: number): boolean {
  switch (op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
  }
}

/**
 * Each threshold with the figure it was checked on and whether it holds. A threshold on an endpoint is checked on that
 * endpoint's figures; an endpoint without figures (unknown, or not measured) gives `{actual: null, ok: false}`.
 */
export function evaluateThresholds(thresholds: readonly Threshold[], figures: ThresholdFigures): ThresholdResult[] {
  return thresholds.map((threshold) => {
    const source = threshold.endpoint === undefined ? figures.total : figures.endpoints.get(threshold.endpoint);
    const actual = source ? figureOf(source, threshold.metric) : null;
    return { ...threshold, actual, ok: actual !== null && holds(actual, threshold.op, threshold.value) };
  });
}

/**
 * The abort thresholds a live check looks at: requests_per_sec ones only once `measuredSeconds` of data are in
 * (`liveRateWarmupSeconds`), so the first interval's rate never stops a run.
 */
export function liveAbortThresholds(thresholds: readonly Threshold[], measuredSeconds: number): Threshold[] {
  return thresholds.filter((t) => t.abort === true && (t.metric !== 'requests_per_sec' || measuredSeconds >= liveRateWarmupSeconds));
}

/**
 * What stops a run while it goes: abort thresholds that fail on a measured figure. A figure not measured yet (no
 * request so far, an endpoint not reached yet) is no failure while the run goes; at the end it is.
 */
export function liveFailures(results: readonly ThresholdResult[]): ThresholdResult[] {
  return results.filter((r) => !r.ok && r.actual !== null);
}

/** The verdict of evaluated thresholds: null when there were none. */
export function verdictOf(results: readonly ThresholdResult[]): Verdict | null {
  if (results.length === 0) return null;
  return results.every((r) => r.ok) ? 'passed' : 'failed';
}

/** `p95 < 200`, `p95 of login < 200`. */
export function describeThreshold(threshold: Threshold): string {
  return `${threshold.metric}${threshold.endpoint === undefined ? '' : ` of ${threshold.endpoint}`} ${threshold.op} ${threshold.value}`;
}

const formatActual = (actual: number | null) => (actual === null ? 'no figures' : `actual ${Math.round(actual * 1000) / 1000}`);

/** `thresholds failed: p95 < 200 (actual 312.4); error_rate <= 0.01 (actual 0.05)`, or null when none failed. */
export function thresholdFailureMessage(results: readonly ThresholdResult[]): string | null {
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0) return null;
  return `thresholds failed: ${failed.map((r) => `${describeThreshold(r)} (${formatActual(r.actual)})`).join('; ')}`;
}
