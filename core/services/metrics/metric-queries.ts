/**
 * GET /metrics/catalog and GET /metrics/query over the workspace's run time series: a metric, a time range, label
 * filters and a step; series grouped by the labels named in `by` (default: one per run, machines merged).
 */
import { compileMatcher, parseFilterValue } from '../../domain/metrics/label-matchers.ts';
import { type MetricColumns, metricColumnsOf } from '../../domain/metrics/metric-columns.ts';
import { queryMetricNamed, queryMetrics } from '../../domain/metrics/query-metrics.ts';
import { type RunLabelName, runLabelNames, seriesKey } from '../../domain/metrics/run-series.ts';
import { parseDuration, parseTime } from '../../domain/metrics/time-params.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import type { Caller } from '../caller.ts';
import { sqlOf } from '../sql.ts';
import { listRunLabelSets } from './run-series-store.ts';
import { metricAnswers } from './answer-cache.ts';
import { planSteps } from './step-aggregates.ts';

/** Points per series at most (Prometheus' own limit): past it the caller picks a longer step. */
export const maxPointsPerSeries = 11_000;
/** Steps a default step aims at. */
const defaultSteps = 250;
/** Values per label the catalog lists, most recent first. */
export const catalogValueLimit = 1_000;

interface QueryHead {
  metric: string;
  unit: string;
  start: number;
  end: number;
  step: number;
  by: string[];
}

/** The default answer: each series' points as `[unix seconds, value]`. */
export interface MetricQueryView extends QueryHead {
  series: { labels: Record<string, string>; points: [number, number][] }[];
}

/** `format=columns`: the same series aligned on shared times (domain/metrics/metric-columns.ts). */
export type MetricQueryColumnsView = QueryHead & MetricColumns;

/** The answer's shapes, by the `format` parameter. */
export const queryFormats = ['points', 'columns'] as const;

const isLabel = (name: string): name is RunLabelName => (runLabelNames as readonly string[]).includes(name);
const reserved = new Set(['metric', 'start', 'end', 'step', 'by', 'format']);

export function createMetricQueryService(deps: { db: Database; now?: () => number }) {
  const sql = sqlOf(deps.db);
  const nowSeconds = () => (deps.now?.() ?? Date.now()) / 1000;

  async function catalog(caller: Caller) {
    const sets = await listRunLabelSets(sql, caller.workspace.workspaceId, null, catalogValueLimit * 4);
    if (sets.length === 0) return [];
    const labels = runLabelNames.map((name) => ({ name, values: [...new Set(sets.map((set) => set[name]))].slice(0, catalogValueLimit) }));
    return queryMetrics.map(({ name, unit, description }) => ({ name, unit, description, labels }));
  }

  async function query(caller: Caller, params: Record<string, string | string[] | undefined>): Promise<MetricQueryView | MetricQueryColumnsView> {
    const one = (name: string) => {
      const value = params[name];
      if (Array.isArray(value)) throw badRequest(`${name} may be given once`);
      return value;
    };
    const format = one('format') ?? 'points';
    if (!(queryFormats as readonly string[]).includes(format)) throw badRequest(`format is one of ${queryFormats.join(', ')}; got ${format}`);
    const metricName = one('metric');
    if (!metricName) throw badRequest(`metric is required: one of ${queryMetrics.map((m) => m.name).join(', ')}`);
    const metric = queryMetricNamed(metricName);
    if (!metric) throw badRequest(`unknown metric ${metricName}: one of ${queryMetrics.map((m) => m.name).join(', ')}`);
    const now = nowSeconds();
    const end = one('end') ? parseTime(one('end')!, 'end', now) : now;
    const start = one('start') ? parseTime(one('start')!, 'start', now) : end - 3600;
    if (!(end > start)) throw badRequest('end must be after start');
    const stepRaw = one('step');
    const step = stepRaw ? parseDuration(stepRaw, 'step') : Math.max(1, Math.ceil((end - start) / defaultSteps));
    if (step < 1) throw badRequest('step must be at least 1s (points are stored per second at best)');
    const steps = Math.ceil((end - start) / step);
    if (steps > maxPointsPerSeries) {
      throw badRequest(`the range holds ${steps} steps of ${step}s; at most ${maxPointsPerSeries} per series: use a longer step or a shorter range`);
    }
    const byRaw = one('by');
    const by = byRaw === undefined ? ['run'] : byRaw.split(',').map((s) => s.trim()).filter(Boolean);
    for (const name of by) if (!isLabel(name)) throw badRequest(`by names labels: ${runLabelNames.join(', ')}; got ${name}`);

    const matchers = [];
    for (const [name, value] of Object.entries(params)) {
      if (reserved.has(name) || value === undefined) continue;
      if (!isLabel(name)) throw badRequest(`unknown parameter ${name}: filter by the labels ${runLabelNames.join(', ')}`);
      for (const raw of Array.isArray(value) ? value : [value]) matchers.push(compileMatcher(parseFilterValue(name, raw)));
    }

    const workspaceId = caller.workspace.workspaceId;
    const plan = await planSteps(sql, { workspaceId, start, end, step, by: by as RunLabelName[], matchers, metric });
    // A dashboard of a finished run asks the same queries again and again: the answer is kept while its rows stay as they are.
    const key = JSON.stringify(['metric-query', workspaceId, metric.name, start, end, step, by, plan.scope]);
    const head = { metric: metric.name, unit: metric.unit, start, end, step, by };
    const columnsKey = `${key}:columns`;
    if (format === 'columns') {
      const knownColumns = metricAnswers.get<MetricColumns>(columnsKey, plan.version);
      if (knownColumns) return { ...head, ...knownColumns };
    }
    let series = metricAnswers.get<MetricQueryView['series']>(key, plan.version);
    if (!series) {
      const groups = await plan.read();
      series = groups.map(({ labels, steps: values }) => ({
        labels,
        points: values.flatMap(({ at, aggregate }): [number, number][] => {
          const value = metric.value(aggregate, step);
          return value === null ? [] : [[at, value]];
        }),
      }));
      series.sort((a, b) => seriesKey(a.labels).localeCompare(seriesKey(b.labels)));
      // Kept in the shape asked for only: a dashboard reads columns, and keeping its points too doubled its memory.
      if (format === 'points') metricAnswers.set(key, plan.version, series, 128 + series.reduce((bytes, one) => bytes + 160 + one.points.length * 40, 0));
    }
    if (format === 'points') return { ...head, series };
    const columns = metricColumnsOf(series, step);
    metricAnswers.set(columnsKey, plan.version, columns, 128 + columns.times.length * (8 + columns.series.length * 16) + columns.series.length * 160);
    return { ...head, ...columns };
  }

  return { catalog, query };
}

export type MetricQueryService = ReturnType<typeof createMetricQueryService>;
