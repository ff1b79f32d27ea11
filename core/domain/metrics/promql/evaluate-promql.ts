/**
 * Evaluates a parsed PromQL expression at one instant over loaded run series. Values are numbers or merged latency
 * histograms: sum() merges histograms and histogram_quantile() reads the merge, so percentiles are never averaged.
 */
import { type EncodedHistogram, mergedPercentile } from '../histogram.ts';
import { compileMatcher, type CompiledMatcher, matchesAll } from '../label-matchers.ts';
import { type RunSeries, seriesKey } from '../run-series.ts';
import type { Expr } from './ast.ts';
import { PromqlError } from './parse-promql.ts';
import { lookbackSeconds, type PromMetricName, promMetricNames, promMetrics } from './prom-metrics.ts';

export type Labels = Record<string, string>;
/**
 * A histogram value: the stored intervals it merges, kept encoded. Summing concatenates; a quantile decodes them once
 * into one dense count array (mergedPercentile), so windows that overlap never merge the same maps again and again.
 */
export class HistogramBag {
  constructor(readonly parts: readonly EncodedHistogram[]) {}
  get count() {
    return this.parts.reduce((n, p) => n + p.count, 0);
  }
  /** Seconds. */
  get sum() {
    return this.parts.reduce((n, p) => n + p.sum, 0) / 1e6;
  }
  /** The φ-quantile in seconds (NaN when empty). */
  quantile(phi: number): number {
    if (this.count === 0) return NaN;
    return mergedPercentile(this.parts.map((p) => p.buckets), phi * 100, this.parts.reduce((m, p) => Math.max(m, p.max), 0)) / 1000;
  }
}

export type SampleValue = number | HistogramBag;
export interface Sample {
  labels: Labels;
  value: SampleValue;
}
export type Value = { kind: 'scalar'; value: number } | { kind: 'vector'; samples: Sample[] };

/** One loaded series, indexed for range sums: prefix sums of the counters and lazily decoded histograms. */
export interface IndexedSeries {
  labels: Labels;
  times: number[];
  /** Cumulative requests and errors up to and including point i (from the run's start). */
  requests: number[];
  errors: number[];
  /** The counters before the first loaded point. */
  requestsBefore: number;
  errorsBefore: number;
  histogram(i: number): HistogramBag;
}

export function indexSeries(series: readonly RunSeries[]): IndexedSeries[] {
  return series.map(({ labels, points, requestsBefore, errorsBefore }) => {
    const requests: number[] = [];
    const errors: number[] = [];
    let r = requestsBefore;
    let e = errorsBefore;
    for (const point of points) {
      requests.push((r += point.requests));
      errors.push((e += point.errors));
    }
    return {
      labels: { ...labels },
      times: points.map((p) => p.t),
      requests,
      errors,
      requestsBefore,
      errorsBefore,
      histogram: (i) => new HistogramBag(points[i]!.histogram ? [points[i]!.histogram!] : []),
    };
  });
}

/** The last index whose time is <= t, or -1. */
function lastAtOrBefore(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const withoutName = ({ __name__: _, ...rest }: Labels) => rest;

export interface RawSeries {
  labels: Labels;
  points: { t: number; value: SampleValue }[];
}

export interface Evaluator {
  evaluate(expr: Expr, t: number): Value;
  /** A bare range selector at `t`: the stored points of each matching series in (t - range, t] (Prometheus' raw matrix). */
  rawRange(expr: Expr & { type: 'selector' }, t: number): RawSeries[];
}

export function createEvaluator(series: readonly IndexedSeries[]): Evaluator {
  const compiled = new Map<Expr, CompiledMatcher[]>();
  /** The (metric, series) pairs a selector matches. */
  function select(expr: Expr & { type: 'selector' }) {
    let matchers = compiled.get(expr);
    if (!matchers) compiled.set(expr, (matchers = expr.matchers.map(compileMatcher)));
    const out: { metric: PromMetricName; series: IndexedSeries; labels: Labels }[] = [];
    for (const metric of promMetricNames) {
      for (const one of series) {
        const labels = { __name__: metric, ...one.labels };
        if (matchesAll(matchers, labels)) out.push({ metric, series: one, labels });
      }
    }
    return out;
  }

  const counterOf = (metric: PromMetricName, s: IndexedSeries) => (metric === 'loadplane_errors_total' ? s.errors : s.requests);

  function instant(expr: Expr & { type: 'selector' }, t: number): Sample[] {
    if (expr.range !== null) throw new PromqlError('a range vector is only accepted inside rate() or increase()');
    const samples: Sample[] = [];
    for (const { metric, series: s, labels } of select(expr)) {
      const i = lastAtOrBefore(s.times, t);
      if (i < 0 || s.times[i]! <= t - lookbackSeconds) continue;
      // A histogram's instant value is its latest interval (a gauge histogram); counters are cumulative.
      samples.push({ labels, value: promMetrics[metric].kind === 'histogram' ? s.histogram(i) : counterOf(metric, s)[i]! });
    }
    return samples;
  }

  function overRange(expr: Expr & { type: 'range_call' }, t: number): Sample[] {
    const window = expr.arg.range!;
    const samples: Sample[] = [];
    for (const { metric, series: s, labels } of select(expr.arg)) {
      const last = lastAtOrBefore(s.times, t);
      const before = lastAtOrBefore(s.times, t - window);
      if (last <= before) continue; // no point in (t - window, t]
      if (promMetrics[metric].kind === 'histogram') {
        const parts: EncodedHistogram[] = [];
        for (let i = before + 1; i <= last; i++) parts.push(...s.histogram(i).parts);
        samples.push({ labels: withoutName(labels), value: new HistogramBag(parts) });
        continue;
      }
      const counter = counterOf(metric, s);
      const base = before >= 0 ? counter[before]! : metric === 'loadplane_errors_total' ? s.errorsBefore : s.requestsBefore;
      const increase = counter[last]! - base;
      samples.push({ labels: withoutName(labels), value: expr.func === 'rate' ? increase / window : increase });
    }
    return samples;
  }

  function numeric(value: SampleValue, what: string): number {
    if (typeof value !== 'number') throw new PromqlError(`${what} needs numbers, not histograms: use histogram_quantile(φ, ...) on loadplane_request_duration_seconds`);
    return value;
  }

  function aggregate(expr: Expr & { type: 'aggregate' }, t: number): Sample[] {
    const input = vectorOf(evaluate(expr.arg, t), expr.op);
    const groups = new Map<string, { labels: Labels; values: SampleValue[] }>();
    for (const sample of input) {
      const labels = withoutName(sample.labels);
      let kept: Labels = {};
      if (expr.grouping && !expr.grouping.without) kept = Object.fromEntries(expr.grouping.labels.filter((l) => l in labels).map((l) => [l, labels[l]!]));
      else if (expr.grouping) kept = Object.fromEntries(Object.entries(labels).filter(([l]) => !expr.grouping!.labels.includes(l)));
      const key = seriesKey(kept);
      const group = groups.get(key);
      if (group) group.values.push(sample.value);
      else groups.set(key, { labels: kept, values: [sample.value] });
    }
    return [...groups.values()].map(({ labels, values }) => {
      if (expr.op === 'count') return { labels, value: values.length };
      if (expr.op === 'sum' && values.every((v) => typeof v !== 'number')) {
        return { labels, value: new HistogramBag(values.flatMap((v) => (v as HistogramBag).parts)) };
      }
      const numbers = values.map((v) => numeric(v, expr.op));
      const value =
        expr.op === 'sum' ? numbers.reduce((a, b) => a + b, 0)
        : expr.op === 'avg' ? numbers.reduce((a, b) => a + b, 0) / numbers.length
        : expr.op === 'min' ? Math.min(...numbers)
        : Math.max(...numbers);
      return { labels, value };
    });
  }

  function vectorOf(value: Value, what: string): Sample[] {
    if (value.kind !== 'vector') throw new PromqlError(`${what} needs an instant vector, not a scalar`);
    return value.samples;
  }

  const apply = (op: string, a: number, b: number) => (op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b);

  function binary(expr: Expr & { type: 'binary' }, t: number): Value {
    const left = evaluate(expr.left, t);
    const right = evaluate(expr.right, t);
    if (left.kind === 'scalar' && right.kind === 'scalar') return { kind: 'scalar', value: apply(expr.op, left.value, right.value) };
    if (left.kind === 'scalar' || right.kind === 'scalar') {
      const vector = left.kind === 'vector' ? left : (right as Value & { kind: 'vector' });
      const scalar = left.kind === 'scalar' ? left.value : (right as Value & { kind: 'scalar' }).value;
      return {
        kind: 'vector',
        samples: vector.samples.map((s) => {
          const v = numeric(s.value, expr.op);
          return { labels: withoutName(s.labels), value: left.kind === 'scalar' ? apply(expr.op, scalar, v) : apply(expr.op, v, scalar) };
        }),
      };
    }
    // Vector with vector: one-to-one on identical label sets (metric names aside).
    const byKey = new Map(right.samples.map((s) => [seriesKey(withoutName(s.labels)), s]));
    const samples: Sample[] = [];
    for (const s of left.samples) {
      const labels = withoutName(s.labels);
      const other = byKey.get(seriesKey(labels));
      if (other) samples.push({ labels, value: apply(expr.op, numeric(s.value, expr.op), numeric(other.value, expr.op)) });
    }
    return { kind: 'vector', samples };
  }

  function evaluate(expr: Expr, t: number): Value {
    switch (expr.type) {
      case 'number':
        return { kind: 'scalar', value: expr.value };
      case 'selector':
        return { kind: 'vector', samples: instant(expr, t) };
      case 'range_call':
        return { kind: 'vector', samples: overRange(expr, t) };
      case 'aggregate':
        return { kind: 'vector', samples: aggregate(expr, t) };
      case 'binary':
        return binary(expr, t);
      case 'quantile': {
        const phi = evaluate(expr.phi, t);
        if (phi.kind !== 'scalar') throw new PromqlError('histogram_quantile takes a number as φ');
        const samples = vectorOf(evaluate(expr.arg, t), 'histogram_quantile').map((s) => {
          if (typeof s.value === 'number') {
            throw new PromqlError('histogram_quantile reads native histograms: give it loadplane_request_duration_seconds, e.g. histogram_quantile(0.95, sum(rate(loadplane_request_duration_seconds[1m])))');
          }
          const q = phi.value;
          const value = q < 0 ? -Infinity : q > 1 ? Infinity : s.value.quantile(q);
          return { labels: withoutName(s.labels), value };
        });
        return { kind: 'vector', samples };
      }
    }
  }

  function rawRange(expr: Expr & { type: 'selector' }, t: number): RawSeries[] {
    const out: RawSeries[] = [];
    for (const { metric, series: s, labels } of select(expr)) {
      const last = lastAtOrBefore(s.times, t);
      const before = lastAtOrBefore(s.times, t - expr.range!);
      if (last <= before) continue;
      const points = [];
      for (let i = before + 1; i <= last; i++) {
        points.push({ t: s.times[i]!, value: promMetrics[metric].kind === 'histogram' ? s.histogram(i) : counterOf(metric, s)[i]! });
      }
      out.push({ labels, points });
    }
    return out;
  }

  return { evaluate, rawRange };
}
