/**
 * The Prometheus HTTP API (query, query_range, labels, label values, series) over the workspace's run time series, for
 * Grafana's Prometheus data source and Prometheus clients. Answers in Prometheus' JSON envelope; bad input is
 * `{status: "error", errorType: "bad_data"}` with 400, as Prometheus answers it.
 */
import { compileMatcher, type CompiledMatcher, type LabelMatcher, matchesAll } from '../../domain/metrics/label-matchers.ts';
import { type Expr, selectorsOf } from '../../domain/metrics/promql/ast.ts';
import { createEvaluator, type HistogramBag, indexSeries, type Sample, type Value } from '../../domain/metrics/promql/evaluate-promql.ts';
import { parsePromql, PromqlError } from '../../domain/metrics/promql/parse-promql.ts';
import { lookbackSeconds, promMetricNames } from '../../domain/metrics/promql/prom-metrics.ts';
import { runLabelNames } from '../../domain/metrics/run-series.ts';
import { parseDuration, parseTime } from '../../domain/metrics/time-params.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import type { Caller } from '../caller.ts';
import { sqlOf } from '../sql.ts';
import { listRunLabelSets, loadRunSeries } from './run-series-store.ts';

export interface PromAnswer {
  status: number;
  body: { status: 'success'; data: unknown } | { status: 'error'; errorType: string; error: string };
}

/** Points per series at most in query_range (Prometheus' own limit). */
export const maxRangePoints = 11_000;
/** Label sets the label and series APIs look at, most recent first. */
const labelSetLimit = 10_000;

const success = (data: unknown): PromAnswer => ({ status: 200, body: { status: 'success', data } });
const badData = (error: string): PromAnswer => ({ status: 400, body: { status: 'error', errorType: 'bad_data', error } });

/** Prometheus' float formatting: NaN, +Inf, -Inf, else the shortest decimal. */
export const formatFloat = (value: number) => (Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : String(value));

function histogramJson(h: HistogramBag) {
  return { count: String(h.count), sum: formatFloat(h.sum), buckets: [] as unknown[] };
}

const sampleJson = (sample: Sample, t: number) =>
  typeof sample.value === 'number'
    ? { metric: sample.labels, value: [t, formatFloat(sample.value)] }
    : { metric: sample.labels, histogram: [t, histogramJson(sample.value)] };

export function createPrometheusApi(deps: { db: Database; now?: () => number }) {
  const sql = sqlOf(deps.db);
  const nowSeconds = () => (deps.now?.() ?? Date.now()) / 1000;

  /** Runs `work`; a parse error or a refused input becomes Prometheus' bad_data answer. */
  async function guarded(work: () => Promise<PromAnswer>): Promise<PromAnswer> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PromqlError) return badData(error.message);
      if (error instanceof DomainError && error.code === 'bad_request') return badData(error.message);
      throw error;
    }
  }

  function parse(params: URLSearchParams): Expr {
    const query = params.get('query');
    if (!query) throw new PromqlError('missing query parameter');
    return parsePromql(query);
  }

  const time = (params: URLSearchParams, name: string, fallback: number) => {
    const raw = params.get(name);
    return raw ? parseTime(raw, name, nowSeconds()) : fallback;
  };

  /** Loads what the expression's selectors can match, from the widest window they look back over. */
  async function evaluatorFor(caller: Caller, expr: Expr, from: number, to: number) {
    const selectors = selectorsOf(expr);
    const reach = Math.max(lookbackSeconds, ...selectors.map((s) => s.range ?? 0));
    const compiled = selectors.map((s) => s.matchers.map(compileMatcher));
    const histograms = compiled.some((matchers) => matchers.filter((m) => m.label === '__name__').every((m) => m.matches('loadplane_request_duration_seconds')));
    // Equality on our labels that every selector shares is pushed into SQL.
    const shared = compiled.length === 0 ? [] : compiled[0]!.filter((m) =>
      m.op === '=' && (runLabelNames as readonly string[]).includes(m.label) && compiled.every((others) => others.some((o) => o.op === '=' && o.label === m.label && o.value === m.value)));
    const series = selectors.length === 0 ? [] : await loadRunSeries(sql, { workspaceId: caller.workspace.workspaceId, from: from - reach, to, matchers: shared, histograms, baseline: true });
    return createEvaluator(indexSeries(series));
  }

  const query = (caller: Caller, params: URLSearchParams) =>
    guarded(async () => {
      const expr = parse(params);
      const t = time(params, 'time', nowSeconds());
      const evaluator = await evaluatorFor(caller, expr, t, t);
      if (expr.type === 'selector' && expr.range !== null) {
        const result = evaluator.rawRange(expr, t).map(({ labels, points }) => {
          const numbers = points.filter((p) => typeof p.value === 'number');
          return numbers.length === points.length
            ? { metric: labels, values: points.map((p) => [p.t, formatFloat(p.value as number)]) }
            : { metric: labels, histograms: points.map((p) => [p.t, histogramJson(p.value as HistogramBag)]) };
        });
        return success({ resultType: 'matrix', result });
      }
      const value = evaluator.evaluate(expr, t);
      if (value.kind === 'scalar') return success({ resultType: 'scalar', result: [t, formatFloat(value.value)] });
      return success({ resultType: 'vector', result: value.samples.map((s) => sampleJson(s, t)) });
    });

  const queryRange = (caller: Caller, params: URLSearchParams) =>
    guarded(async () => {
      const expr = parse(params);
      if (!params.get('start') || !params.get('end') || !params.get('step')) throw new PromqlError('query_range needs start, end and step');
      const start = time(params, 'start', 0);
      const end = time(params, 'end', 0);
      if (end < start) return badData('end timestamp must not be before start time');
      const step = parseDuration(params.get('step')!, 'step');
      const points = Math.floor((end - start) / step) + 1;
      if (points > maxRangePoints) {
        return badData(`exceeded maximum resolution of ${maxRangePoints} points per timeseries. Try decreasing the query resolution (?step=XX)`);
      }
      const evaluator = await evaluatorFor(caller, expr, start, end);
      const matrix = new Map<string, { metric: Record<string, string>; values: [number, string][]; histograms: [number, unknown][] }>();
      for (let i = 0; i < points; i++) {
        const t = start + i * step;
        const value: Value = evaluator.evaluate(expr, t);
        const samples: Sample[] = value.kind === 'scalar' ? [{ labels: {}, value: value.value }] : value.samples;
        for (const sample of samples) {
          const key = JSON.stringify(Object.entries(sample.labels).sort());
          let series = matrix.get(key);
          if (!series) matrix.set(key, (series = { metric: sample.labels, values: [], histograms: [] }));
          if (typeof sample.value === 'number') series.values.push([t, formatFloat(sample.value)]);
          else series.histograms.push([t, histogramJson(sample.value)]);
        }
      }
      const result = [...matrix.values()].map(({ metric, values, histograms }) => ({ metric, ...(histograms.length ? { histograms } : { values }) }));
      return success({ resultType: 'matrix', result });
    });

  /** The selectors of match[] (plain selectors only), compiled. */
  function matchSelectors(params: URLSearchParams): CompiledMatcher[][] {
    return params.getAll('match[]').map((raw) => {
      const expr = parsePromql(raw);
      if (expr.type !== 'selector' || expr.range !== null) throw new PromqlError(`match[] takes series selectors, such as {run="..."}; got ${raw}`);
      return (expr.matchers as LabelMatcher[]).map(compileMatcher);
    });
  }

  /** Every series (metric name with its run labels) the workspace has in the window that one of match[] selects. */
  async function seriesIn(caller: Caller, params: URLSearchParams, requireMatch: boolean) {
    const selectors = matchSelectors(params);
    if (requireMatch && selectors.length === 0) throw new PromqlError('no match[] parameter provided');
    const window = params.get('start') || params.get('end')
      ? { from: time(params, 'start', 0), to: time(params, 'end', nowSeconds()) }
      : null;
    const sets = await listRunLabelSets(sql, caller.workspace.workspaceId, window, labelSetLimit);
    const out: Record<string, string>[] = [];
    for (const set of sets) {
      for (const name of promMetricNames) {
        const labels = { __name__: name, ...set };
        if (selectors.length === 0 || selectors.some((matchers) => matchesAll(matchers, labels))) out.push(labels);
      }
    }
    return out;
  }

  const labels = (caller: Caller, params: URLSearchParams) =>
    guarded(async () => {
      const series = await seriesIn(caller, params, false);
      return success(series.length === 0 ? [] : ['__name__', ...runLabelNames].sort());
    });

  const labelValues = (caller: Caller, name: string, params: URLSearchParams) =>
    guarded(async () => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return badData(`invalid label name: ${JSON.stringify(name)}`);
      const series = await seriesIn(caller, params, false);
      return success([...new Set(series.map((labels) => labels[name]).filter((v): v is string => v !== undefined))].sort());
    });

  const series = (caller: Caller, params: URLSearchParams) => guarded(async () => success(await seriesIn(caller, params, true)));

  return { query, queryRange, labels, labelValues, series };
}

export type PrometheusApi = ReturnType<typeof createPrometheusApi>;
