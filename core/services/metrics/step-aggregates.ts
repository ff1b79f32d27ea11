/**
 * The database side of GET /metrics/query: one row per step and group of the `by` labels, with the sums a step's value
 * needs, so a query over an hour of 1 s points from 4 machines ships a few hundred rows instead of 14,400. Regex and
 * negated filters are resolved first against the workspace's series (JavaScript regex semantics, as the API
 * promises), then passed to SQL as the exact list of series to read.
 */
import { type CompiledMatcher, matchesAll } from '../../domain/metrics/label-matchers.ts';
import type { QueryMetric, StepAggregate } from '../../domain/metrics/query-metrics.ts';
import type { RunLabelName } from '../../domain/metrics/run-series.ts';
import { clampUnixSeconds } from '../../domain/metrics/time-params.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { Sql } from '../sql.ts';
import { runPointsVersion } from './metric-changes.ts';
import { columnOf, equalityFilters, maxLoadedPoints } from './run-series-store.ts';

/** Series a regex filter may pick among; past it the caller narrows by run. */
export const maxFilteredSeries = 5_000;

export interface StepQuery {
  workspaceId: string;
  start: number;
  end: number;
  step: number;
  by: readonly RunLabelName[];
  matchers: readonly CompiledMatcher[];
  metric: QueryMetric;
}

export interface GroupSteps {
  labels: Record<string, string>;
  steps: { at: number; aggregate: StepAggregate }[];
}

type Row = Record<string, unknown> & { k: number | string; n: number | string; requests: number | string; errors: number | string };

/**
 * A query resolved against the stored points, before their aggregation: `scope` names exactly the rows it reads (the
 * SQL filter and its values, regexes resolved to series), `version` changes whenever those rows do (their count and
 * newest id, or the change counters of the runs it names), so an answer computed by `read` can be kept for them.
 */
export interface StepsPlan {
  scope: string;
  version: string;
  read(): Promise<GroupSteps[]>;
}

const nothing: StepsPlan = { scope: 'none', version: 'none', read: async () => [] };

export async function planSteps(sql: Sql, query: StepQuery): Promise<StepsPlan> {
  const equality = equalityFilters(query.matchers);
  if (!equality) return nothing;
  const window = 'workspace_id = ? and ended_at > to_timestamp(?) and ended_at <= to_timestamp(?)';
  // Range arithmetic (a start minus a huge range) may leave the years PostgreSQL can hold.
  const windowParams = [query.workspaceId, clampUnixSeconds(query.start), clampUnixSeconds(query.end)];
  let where = `${window}${equality.where}`;
  const params: unknown[] = [...windowParams, ...equality.params];

  if (query.matchers.some((m) => m.op !== '=')) {
    const sets = await sql.all<{ run: string; machine: string; test: string }>(
      `select task_id::text as run, machine_id::text as machine, test_id::text as test from task_metric_points
       where ${where} group by task_id, machine_id, test_id limit ?`,
      [...params, maxFilteredSeries + 1],
    );
    if (sets.length > maxFilteredSeries) throw badRequest(`the filters look at more than ${maxFilteredSeries} series: filter by run as well`);
    const kept = sets.filter((set) => matchesAll(query.matchers, set));
    if (kept.length === 0) return nothing;
    if (kept.length < sets.length) {
      where += ` and (task_id, machine_id) in (${kept.map(() => '(?::uuid, ?::uuid)').join(', ')})`;
      for (const set of kept) params.push(set.run, set.machine);
    }
  }

  // Refuse before aggregating what would be too much to read.
  const countRows = async () => {
    const [{ count, newest }] = (await sql.all<{ count: number | string; newest: number | string | null }>(
      `select count(*) as count, max(id) as newest from (select id from task_metric_points where ${where} limit ?) capped`,
      [...params, maxLoadedPoints + 1],
    )) as [{ count: number | string; newest: number | string | null }];
    if (Number(count) > maxLoadedPoints) {
      throw badRequest(`the query would read more than ${maxLoadedPoints} stored points: narrow the time range or filter by run or machine`);
    }
    return `${count}:${newest}`;
  };
  const scope = JSON.stringify([where, params]);
  // A query of named runs is versioned by their change counters (primary-key reads), and counts its rows only when it
  // must read them; any other by the count and newest id of the rows it reads (points are only added, or deleted with
  // their run or by retention).
  const runs = query.matchers.filter((m) => m.op === '=' && m.label === 'run').map((m) => m.value.toLowerCase());
  if (runs.length > 0) {
    return {
      scope,
      version: await runPointsVersion(sql, runs),
      read: async () => {
        await countRows();
        return readSteps(sql, query, where, params);
      },
    };
  }
  return { scope, version: await countRows(), read: () => readSteps(sql, query, where, params) };
}

async function readSteps(sql: Sql, query: StepQuery, where: string, params: readonly unknown[]): Promise<GroupSteps[]> {
  const groupColumns = query.by.map((label) => `${columnOf[label]}::text as "${label}"`);
  const { metric } = query;
  const latency = metric.latency
    ? `, sum((histogram->>'count')::float8) as latency_count, sum((histogram->>'sum')::float8) as latency_sum, max((histogram->>'max')::float8) as latency_max`
    : '';
  const percentile = metric.percentile
    ? `, min(p${metric.percentile}) as stored, case when count(*) > 1 then string_agg(histogram->>'buckets', ' ') end as buckets`
    : '';
  const rows = await sql.all<Row>(
    `select ${[...groupColumns, 'ceil((extract(epoch from ended_at) - ?::float8) / ?::float8)::bigint as k'].join(', ')},
       count(*) as n, sum(requests)::float8 as requests, sum(errors)::float8 as errors${latency}${percentile}
     from task_metric_points where ${where}
     group by ${[...query.by.map((_, i) => String(i + 1)), String(query.by.length + 1)].join(', ')}
     order by ${query.by.length + 1}`,
    [query.start, query.step, ...params],
  );

  const groups = new Map<string, GroupSteps>();
  for (const row of rows) {
    const labels = Object.fromEntries(query.by.map((label) => [label, String(row[label])]));
    const key = query.by.map((label) => labels[label]).join('|');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { labels, steps: [] }));
    const buckets = typeof row.buckets === 'string' ? row.buckets.split(' ') : null;
    group.steps.push({
      at: query.start + Number(row.k) * query.step,
      aggregate: {
        points: Number(row.n),
        requests: Number(row.requests),
        errors: Number(row.errors),
        latencyCount: Number(row.latency_count ?? 0),
        latencySum: Number(row.latency_sum ?? 0),
        latencyMax: Number(row.latency_max ?? 0),
        stored: row.stored === undefined || row.stored === null ? null : Number(row.stored),
        buckets,
      },
    });
  }
  return [...groups.values()];
}
