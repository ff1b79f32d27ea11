/**
 * Reads a workspace's run time series (task_metric_points) for a time window, filtered by label matchers, as series of
 * points. Equality on a label is pushed into SQL; regexes are applied here. Every read is scoped to the workspace, so
 * another workspace's runs never appear, whatever the matchers say.
 */
import type { EncodedHistogram } from '../../domain/metrics/histogram.ts';
import { type CompiledMatcher, matchesAll } from '../../domain/metrics/label-matchers.ts';
import { type RunLabelName, type RunLabels, type RunSeries, runLabelNames, seriesKey } from '../../domain/metrics/run-series.ts';
import { clampUnixSeconds } from '../../domain/metrics/time-params.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { Sql } from '../sql.ts';
import { isUuid } from '../workspace-scope.ts';

/** Points read for one query at most: past it the caller narrows the range or filters (a clear 400, not a slow answer). */
export const maxLoadedPoints = 250_000;

export const columnOf: Record<RunLabelName, string> = { run: 'task_id', machine: 'machine_id', test: 'test_id' };

export interface SeriesWindow {
  workspaceId: string;
  /** Unix seconds, exclusive. */
  from: number;
  /** Unix seconds, inclusive. */
  to: number;
  matchers: readonly CompiledMatcher[];
  histograms: boolean;
  /** Also sum requests and errors before `from` (cumulative counters of the Prometheus API). */
  baseline?: boolean;
}

interface Row {
  t: number | string;
  run: string;
  machine: string;
  test: string;
  requests: number;
  errors: number;
  histogram?: EncodedHistogram | string;
}

/** SQL conditions for the equality matchers on our labels; null when one can match nothing (not a UUID). */
export function equalityFilters(matchers: readonly CompiledMatcher[]): { where: string; params: string[] } | null {
  let where = '';
  const params: string[] = [];
  for (const matcher of matchers) {
    if (matcher.op !== '=' || !(runLabelNames as readonly string[]).includes(matcher.label)) continue;
    if (!isUuid(matcher.value)) return null;
    where += ` and ${columnOf[matcher.label as RunLabelName]} = ?`;
    params.push(matcher.value.toLowerCase());
  }
  return { where, params };
}

const labelsOf = (row: { run: string; machine: string; test: string }): RunLabels => ({ run: row.run, machine: row.machine, test: row.test });

export async function loadRunSeries(sql: Sql, window: SeriesWindow): Promise<RunSeries[]> {
  const filters = equalityFilters(window.matchers);
  if (!filters || window.to <= window.from) return [];
  const rows = await sql.all<Row>(
    `select extract(epoch from ended_at)::float8 as t, task_id::text as run, machine_id::text as machine, test_id::text as test,
       requests, errors${window.histograms ? ', histogram' : ''}
     from task_metric_points
     where workspace_id = ? and ended_at > to_timestamp(?) and ended_at <= to_timestamp(?)${filters.where}
     order by ended_at, id
     limit ?`,
    [window.workspaceId, clampUnixSeconds(window.from), clampUnixSeconds(window.to), ...filters.params, maxLoadedPoints + 1],
  );
  if (rows.length > maxLoadedPoints) {
    throw badRequest(`the query would read more than ${maxLoadedPoints} stored points: narrow the time range or filter by run or machine`);
  }
  const series = new Map<string, RunSeries>();
  for (const row of rows) {
    const labels = labelsOf(row);
    if (!matchesAll(window.matchers, labels)) continue;
    const key = seriesKey(labels);
    let one = series.get(key);
    if (!one) series.set(key, (one = { labels, points: [], requestsBefore: 0, errorsBefore: 0 }));
    const histogram = typeof row.histogram === 'string' ? (JSON.parse(row.histogram) as EncodedHistogram) : (row.histogram ?? null);
    one.points.push({ t: Number(row.t), requests: Number(row.requests), errors: Number(row.errors), histogram });
  }
  if (window.baseline && series.size > 0) {
    const before = await sql.all<{ run: string; machine: string; test: string; requests: number | string; errors: number | string }>(
      `select task_id::text as run, machine_id::text as machine, test_id::text as test, sum(requests) as requests, sum(errors) as errors
       from task_metric_points where workspace_id = ? and ended_at <= to_timestamp(?)${filters.where}
       group by task_id, machine_id, test_id`,
      [window.workspaceId, clampUnixSeconds(window.from), ...filters.params],
    );
    for (const row of before) {
      const one = series.get(seriesKey(labelsOf(row)));
      if (one) {
        one.requestsBefore = Number(row.requests);
        one.errorsBefore = Number(row.errors);
      }
    }
  }
  return [...series.values()];
}

/** The label sets (series) of the workspace's runs, most recent first, for the catalog and the Prometheus label APIs. */
export async function listRunLabelSets(sql: Sql, workspaceId: string, window: { from: number; to: number } | null, limit: number): Promise<RunLabels[]> {
  const rows = await sql.all<{ run: string; machine: string; test: string }>(
    `select task_id::text as run, machine_id::text as machine, test_id::text as test
     from task_metric_points where workspace_id = ?${window ? ' and ended_at > to_timestamp(?) and ended_at <= to_timestamp(?)' : ''}
     group by task_id, machine_id, test_id
     order by max(ended_at) desc
     limit ?`,
    [workspaceId, ...(window ? [clampUnixSeconds(window.from), clampUnixSeconds(window.to)] : []), limit],
  );
  return rows.map(labelsOf);
}
