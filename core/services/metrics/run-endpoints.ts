/**
 * A run's results per endpoint and its errors by group. Each interval an agent sends may carry per-endpoint snapshots
 * and error groups; `storeIntervalEndpoints` folds them, in the transaction of the interval point, into one row per
 * task, endpoint, machine and minute (counts added, histograms merged; once a minute closed, folded into the machine's
 * total row of the endpoint) and one row per task, endpoint, kind and code. That is work each second for each endpoint
 * (50 a second for a test of 50 steps): histograms are merged and encoded in one pass over a dense array
 * (mergeEncodedHistograms), and a memo per database spares an interval the statements that would only confirm what is
 * stored already (TaskMemo).
 * `readRunEndpoints` merges those rows across machines and minutes: counts summed, percentiles read from the merged
 * histograms, never averaged. A run keeps at most 200 names (the agent folds later ones into `(other)`, and so does
 * the server across machines); the totals stay intact.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { LatencyHistogram, mergedPercentiles, mergeEncodedHistograms, type EncodedHistogram } from '../../domain/metrics/histogram.ts';
import type { RunFigures } from '../../domain/metrics/merge-summaries.ts';
import { endpointNameOf, errorMessageOf, maxEndpointNames, otherEndpoint } from '../../domain/metrics/metric-recorder.ts';
import type { Sql } from '../sql.ts';
import { metricAnswers } from './answer-cache.ts';
import { type EndpointMinute, readEndpointTimelines, storeClosedMinutes } from './run-endpoint-timeline.ts';

/** Error groups a task keeps (endpoint, kind, code); later ones are counted in one group per kind under `(other)`. */
export const maxTaskErrorGroups = 500;
/** Groups `GET /tasks/{id}/errors` answers at most (the most frequent). */
export const maxErrorGroupsListed = 1000;

export interface EndpointResult {
  name: string;
  requests: number;
  errors: number;
  /** errors / requests, 0..1 (0 without requests). */
  error_rate: number;
  /** The endpoint's requests over the run's measured window (first sample of any machine to the last). */
  requests_per_sec: number;
  /** Milliseconds, from the merged histogram. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Per minute, from the run's first minute to its last: only when asked (`timeline`). */
  timeline?: EndpointMinute[];
}

export interface ErrorGroupResult {
  endpoint: string;
  kind: 'status' | 'network' | 'check' | 'script';
  code: string;
  message: string;
  count: number;
}

export interface IntervalOwner {
  workspaceId: string;
  taskId: string;
  machineId: string;
}

interface Folded {
  /** The interval's histograms of the name, in the order sent: merged with the stored minute's in one pass. */
  histograms: EncodedHistogram[];
  requests: number;
  errors: number;
}

interface MinuteRow {
  name: string;
  requests: number | string;
  errors: number | string;
  histogram: EncodedHistogram | string;
}

const parsed = (histogram: EncodedHistogram | string): EncodedHistogram =>
  typeof histogram === 'string' ? (JSON.parse(histogram) as EncodedHistogram) : histogram;

/**
 * What this process knows to be stored, per task, so an interval skips two statements a second that would only confirm
 * it (each statement costs the service and the database CPU whatever the number of endpoints):
 * - `names`: names in the task's task_endpoint_names. A stored name stays until the task is deleted (nothing else
 *   removes one), and a name the task has is placed as itself whatever the others, so an interval whose names all are
 *   known places them exactly as the select would have, without it. Names other replicas added are simply not known
 *   here: an interval with one reads the table as before.
 * - `checked`: per machine, the minute of its last interval and the names whose closed minutes that interval folded.
 *   Closed minutes are folded when a later minute's interval comes, so another interval of the same minute and names
 *   has none to fold unless a late interval (a resend after a reconnect) stored an earlier minute meanwhile, which is
 *   folded with the next minute. Reads merge open and folded rows alike, so the moment of a fold changes no answer.
 * Both are set from `IntervalStored` only once its transaction committed (`rememberStoredInterval`): a rolled-back
 * interval teaches nothing. One memo per database (endpointsMemoOf), bounded: its most recent `rememberedTasks` tasks.
 */
interface TaskMemo {
  names: Set<string>;
  checked: Map<string, { minute: number; names: Set<string> }>;
}
const rememberedTasks = 256;

/** One database's TaskMemo per task id, the most recently used last. */
export type EndpointsMemo = Map<string, TaskMemo>;
const memosByDatabase = new WeakMap<object, EndpointsMemo>();

/** The memo of the database `db` (one per database object: services that share a process never share one). */
export function endpointsMemoOf(db: object): EndpointsMemo {
  let memo = memosByDatabase.get(db);
  if (!memo) memosByDatabase.set(db, (memo = new Map()));
  return memo;
}

/** What `storeIntervalEndpoints` stored, for `rememberStoredInterval` once its transaction committed. */
export interface IntervalStored {
  taskId: string;
  machineId: string;
  /** Every name the task has in task_endpoint_names after the interval (those it read or found known, and those it added). */
  names: ReadonlySet<string>;
  /** The interval's minute and the names whose closed minutes it folded (null: it stored no endpoint). */
  folded: { minute: number; names: readonly string[] } | null;
}

/** Call it after the transaction that ran `storeIntervalEndpoints` committed, with what that returned. */
export function rememberStoredInterval(memos: EndpointsMemo, stored: IntervalStored): void {
  let memo = memos.get(stored.taskId);
  if (memo) memos.delete(stored.taskId);
  else memo = { names: new Set(), checked: new Map() };
  memos.set(stored.taskId, memo); // the most recent last
  for (const name of stored.names) memo.names.add(name);
  if (stored.folded) {
    const last = memo.checked.get(stored.machineId);
    if (last && last.minute === stored.folded.minute) for (const name of stored.folded.names) last.names.add(name);
    else memo.checked.set(stored.machineId, { minute: stored.folded.minute, names: new Set(stored.folded.names) });
  }
  if (memos.size > rememberedTasks) memos.delete(memos.keys().next().value!);
}

/**
 * Stores an interval's per-endpoint figures and error groups (nothing when it has none). Call it in the transaction
 * that stores the interval point, after the snapshot passed snapshotProblem. With `memos` (the database's), it skips
 * what they show to be stored already; pass what it returns to `rememberStoredInterval` once that transaction committed
 * (store-metric-interval.ts does both).
 */
export async function storeIntervalEndpoints(tx: Sql, owner: IntervalOwner, snapshot: MetricSnapshot, memos?: EndpointsMemo): Promise<IntervalStored | null> {
  const endpoints = snapshot.endpoints ?? [];
  const groups = snapshot.errorGroups ?? [];
  if (endpoints.length === 0 && groups.length === 0) return null;
  const { workspaceId, taskId, machineId } = owner;
  const memo = memos?.get(taskId);

  // The names this task kept so far: a new one past the 200th (machines add theirs together) goes into `(other)`. Read
  // unless this process knows every name of the interval to be stored already (TaskMemo).
  const asked = [...endpoints.map((endpoint) => endpointNameOf(endpoint.name)), ...groups.filter((group) => group.endpoint !== '').map((group) => endpointNameOf(group.endpoint))];
  const known =
    memo && asked.every((name) => memo.names.has(name))
      ? new Set(memo.names)
      : new Set((await tx.all<{ name: string }>('select name from task_endpoint_names where task_id = ?', [taskId])).map((row) => row.name));
  let named = [...known].filter((name) => name !== otherEndpoint).length;
  const added: string[] = [];
  const place = (raw: string): string => {
    let name = endpointNameOf(raw);
    if (name !== otherEndpoint && !known.has(name)) {
      if (named >= maxEndpointNames) name = otherEndpoint;
      else named++;
    }
    if (!known.has(name)) {
      known.add(name);
      added.push(name);
    }
    return name;
  };

  const folded = new Map<string, Folded>();
  for (const endpoint of endpoints) {
    const name = place(endpoint.name);
    let one = folded.get(name);
    if (!one) folded.set(name, (one = { histograms: [], requests: 0, errors: 0 }));
    one.histograms.push(endpoint.histogram);
    one.requests += endpoint.requests;
    one.errors += endpoint.errors;
  }
  // An error group's endpoint is placed like the endpoints' (a group of a name never seen as an endpoint adds it).
  const placedGroups = groups.map((group) => ({ ...group, endpoint: group.endpoint === '' ? '' : place(group.endpoint) }));
  if (added.length > 0) {
    await tx.all(`insert into task_endpoint_names (task_id, name) select ?, value from json_array_elements_text(?::json) on conflict do nothing`, [
      taskId,
      JSON.stringify(added),
    ]);
  }

  let foldedNames: { minute: number; names: readonly string[] } | null = null;
  if (folded.size > 0) {
    // The minute that holds the interval's middle (as the time series buckets it): a one-second interval ending on the
    // minute belongs to the minute before.
    const minute = Math.floor((snapshot.startedAt + snapshot.endedAt) / 2 / 60_000);
    const names = [...folded.keys()];
    foldedNames = { minute, names };
    // Rows first (so two intervals of one minute never both insert), then locked, merged and written back.
    await tx.all(
      `insert into task_endpoint_minutes (task_id, workspace_id, machine_id, name, minute, histogram, started_ms, ended_ms)
       select ?, ?, ?, value, ?, ?::jsonb, ?, ? from json_array_elements_text(?::json)
       on conflict do nothing`,
      [taskId, workspaceId, machineId, minute, JSON.stringify(new LatencyHistogram().encode()), snapshot.startedAt, snapshot.endedAt, JSON.stringify(names)],
    );
    const rows = await tx.all<MinuteRow>(
      `select name, requests, errors, histogram from task_endpoint_minutes
       where task_id = ? and machine_id = ? and minute = ? and name in (select value from json_array_elements_text(?::json))
       for update`,
      [taskId, machineId, minute, JSON.stringify(names)],
    );
    const updates = rows.map((row) => {
      const one = folded.get(row.name)!;
      // The interval's histograms, then the stored minute's, merged and encoded in one pass over a dense array (the same
      // string as merging them into a LatencyHistogram and encoding it, without its Map and sort): for each of an
      // interval's endpoints, 50 a second for a test of 50 steps, each minute's histogram of thousands of buckets.
      const histogram = mergeEncodedHistograms([...one.histograms, parsed(row.histogram)]);
      return { name: row.name, requests: Number(row.requests) + one.requests, errors: Number(row.errors) + one.errors, histogram };
    });
    await tx.all(
      `update task_endpoint_minutes m set requests = r.requests, errors = r.errors, histogram = r.histogram,
         started_ms = least(m.started_ms, ?), ended_ms = greatest(m.ended_ms, ?)
       from json_to_recordset(?::json) as r(name text, requests bigint, errors bigint, histogram jsonb)
       where m.task_id = ? and m.machine_id = ? and m.minute = ? and m.name = r.name`,
      [snapshot.startedAt, snapshot.endedAt, JSON.stringify(updates), taskId, machineId, minute],
    );
    // Closed minutes to fold, unless an interval of this machine, minute and names already folded them (TaskMemo).
    const checked = memo?.checked.get(machineId);
    if (!checked || checked.minute !== minute || !names.every((name) => checked.names.has(name))) await foldClosedMinutes(tx, owner, names, minute);
  }

  if (placedGroups.length > 0) {
    const rows = placedGroups.map((group) => ({
      endpoint: group.endpoint,
      kind: group.kind,
      code: String(group.code).slice(0, 100),
      message: errorMessageOf(group.message),
      count: group.count,
    }));
    // A group the task has, or room for a new one: kept as it is; else counted under (`(other)`, kind, `(other)`).
    await tx.all(
      `with r as (select * from json_to_recordset(?::json) as r(endpoint text, kind text, code text, message text, count bigint)),
         room as (select count(*) < ? as ok from task_error_groups where task_id = ?),
         placed as (
           select r.*, (select ok from room) or exists (
             select 1 from task_error_groups g where g.task_id = ? and g.endpoint = r.endpoint and g.kind = r.kind and g.code = r.code
           ) as kept from r)
       insert into task_error_groups (task_id, workspace_id, endpoint, kind, code, message, count)
       select ?, ?, case when kept then endpoint else ? end, kind, case when kept then code else ? end,
         min(case when kept then message else 'more kinds of errors than a run keeps' end), sum(count)
       from placed group by 3, 4, 5
       on conflict (task_id, endpoint, kind, code) do update set count = task_error_groups.count + excluded.count`,
      [JSON.stringify(rows), maxTaskErrorGroups, taskId, taskId, taskId, workspaceId, otherEndpoint, otherEndpoint],
    );
  }
  return { taskId, machineId, names: known, folded: foldedNames };
}

/** The row that holds a machine's closed minutes of an endpoint, merged. */
const closedMinutes = -1;

/**
 * Once a minute of `names` closed (this interval is in a later one), its rows are merged into the machine's total row
 * of each name (minute -1) and deleted: a read then merges one total and one open minute per machine and name (800
 * rows for 8 machines and 50 endpoints, whatever the run's length), while each second's write still rewrites no more
 * than a minute's histogram.
 */
async function foldClosedMinutes(tx: Sql, owner: IntervalOwner, names: readonly string[], minute: number): Promise<void> {
  const { workspaceId, taskId, machineId } = owner;
  const closed = await tx.all<MinuteRow & { minute: number | string; started_ms: number | string; ended_ms: number | string }>(
    `select name, minute, requests, errors, histogram, started_ms, ended_ms from task_endpoint_minutes
     where task_id = ? and machine_id = ? and name in (select value from json_array_elements_text(?::json)) and minute >= 0 and minute < ?
     for update`,
    [taskId, machineId, JSON.stringify(names), minute],
  );
  if (closed.length === 0) return;
  // The minutes stay readable per minute (sparklines, the top-10 chart), merged across machines.
  await storeClosedMinutes(tx, owner, closed);
  const merged = new Map<string, { histograms: EncodedHistogram[]; requests: number; errors: number; started: number; ended: number }>();
  for (const row of closed) {
    let one = merged.get(row.name);
    if (!one) merged.set(row.name, (one = { histograms: [], requests: 0, errors: 0, started: Infinity, ended: -Infinity }));
    one.histograms.push(parsed(row.histogram));
    one.requests += Number(row.requests);
    one.errors += Number(row.errors);
    one.started = Math.min(one.started, Number(row.started_ms));
    one.ended = Math.max(one.ended, Number(row.ended_ms));
  }
  const folded = [...merged.keys()];
  await tx.all(
    `insert into task_endpoint_minutes (task_id, workspace_id, machine_id, name, minute, histogram, started_ms, ended_ms)
     select ?, ?, ?, r.name, ?, ?::jsonb, r.started, r.ended from json_to_recordset(?::json) as r(name text, started float8, ended float8)
     on conflict do nothing`,
    [
      taskId,
      workspaceId,
      machineId,
      closedMinutes,
      JSON.stringify(new LatencyHistogram().encode()),
      JSON.stringify(folded.map((name) => ({ name, started: merged.get(name)!.started, ended: merged.get(name)!.ended }))),
    ],
  );
  const totals = await tx.all<MinuteRow>(
    `select name, requests, errors, histogram from task_endpoint_minutes
     where task_id = ? and machine_id = ? and minute = ? and name in (select value from json_array_elements_text(?::json))
     for update`,
    [taskId, machineId, closedMinutes, JSON.stringify(folded)],
  );
  const updates = totals.map((row) => {
    const one = merged.get(row.name)!;
    return {
      name: row.name,
      requests: Number(row.requests) + one.requests,
      errors: Number(row.errors) + one.errors,
      // decode(total).merge(the closed minutes merged).encode(), in two passes without a Map.
      histogram: mergeEncodedHistograms([parsed(row.histogram), mergeEncodedHistograms(one.histograms)], { firstDecoded: true }),
      started: one.started,
      ended: one.ended,
    };
  });
  await tx.all(
    `update task_endpoint_minutes m set requests = r.requests, errors = r.errors, histogram = r.histogram,
       started_ms = least(m.started_ms, r.started), ended_ms = greatest(m.ended_ms, r.ended)
     from json_to_recordset(?::json) as r(name text, requests bigint, errors bigint, histogram jsonb, started float8, ended float8)
     where m.task_id = ? and m.machine_id = ? and m.minute = ? and m.name = r.name`,
    [JSON.stringify(updates), taskId, machineId, closedMinutes],
  );
  await tx.all(
    `delete from task_endpoint_minutes
     where task_id = ? and machine_id = ? and name in (select value from json_array_elements_text(?::json)) and minute >= 0 and minute < ?`,
    [taskId, machineId, JSON.stringify(folded), minute],
  );
}

interface EndpointRow {
  name: string;
  requests: number | string;
  errors: number | string;
  max_micros: number | string | null;
  buckets: string | null;
  first: number | string | null;
  last: number | string | null;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The task's figures per endpoint, merged across machines and minutes (percentiles from the merged histograms), sorted
 * by requests (most first, then by name); at most 200 names, the rest (and the agents' own `(other)`) in one last row
 * named `(other)`. Empty for a task without per-endpoint results (another workspace's task reads as none).
 */
export async function readRunEndpoints(sql: Sql, workspaceId: string, taskId: string, options: { timeline?: boolean } = {}): Promise<EndpointResult[]> {
  return readEndpoints(sql, taskId, workspaceId, options.timeline ?? false);
}

/**
 * The same figures by endpoint name in the shape of a run's own (RunFigures), for thresholds that name an endpoint
 * (the signature of EndpointFigures in core/services/runs/endpoint-figures.ts): the task id is the server's own, so no
 * workspace is asked.
 */
export async function runEndpointFigures(sql: Sql, taskId: string): Promise<ReadonlyMap<string, RunFigures>> {
  const endpoints = await readEndpoints(sql, taskId, null, false);
  return new Map(
    endpoints.map((one) => [
      one.name,
      { p50: one.p50, p95: one.p95, p99: one.p99, errorRate: one.error_rate, requestsPerSec: one.requests_per_sec, totalRequests: one.requests },
    ]),
  );
}

interface VersionRow {
  n: number | string;
  requests: number | string | null;
  errors: number | string | null;
  last: number | string | null;
  folded_n: number | string;
  folded: number | string | null;
}

/**
 * What every write of the task's endpoint rows changes: an interval adds requests and moves the last sample's time, a
 * fold moves requests from open minutes into the totals and the timeline (its count and sum grow). Read before the
 * figures, so a finished run's answer is computed once (metricAnswers) and a live run's is never stale.
 */
async function endpointsVersion(sql: Sql, taskId: string, workspaceId: string | null): Promise<string> {
  const scope = workspaceId === null ? '' : ' and workspace_id = ?';
  const one = workspaceId === null ? [taskId] : [taskId, workspaceId];
  const [row] = await sql.all<VersionRow>(
    `select count(*) as n, sum(requests) as requests, sum(errors) as errors, max(ended_ms) as last,
       (select count(*) from task_endpoint_timeline where task_id = ?${scope}) as folded_n,
       (select sum(requests) from task_endpoint_timeline where task_id = ?${scope}) as folded
     from task_endpoint_minutes where task_id = ?${scope}`,
    [...one, ...one, ...one],
  );
  return row ? [row.n, row.requests, row.errors, row.last, row.folded_n, row.folded].join(':') : '';
}

async function readEndpoints(sql: Sql, taskId: string, workspaceId: string | null, withTimeline: boolean): Promise<EndpointResult[]> {
  const key = `endpoints:${workspaceId ?? '*'}:${taskId}:${withTimeline ? 'timeline' : ''}`;
  const version = await endpointsVersion(sql, taskId, workspaceId);
  const known = metricAnswers.get<EndpointResult[]>(key, version);
  if (known) return known;
  const rows = await sql.all<EndpointRow>(
    `select name, sum(requests)::float8 as requests, sum(errors)::float8 as errors, max((histogram->>'max')::float8) as max_micros,
       string_agg(nullif(histogram->>'buckets', ''), ' ') as buckets, min(started_ms) as first, max(ended_ms) as last
     from task_endpoint_minutes where task_id = ?${workspaceId === null ? '' : ' and workspace_id = ?'} group by name`,
    workspaceId === null ? [taskId] : [taskId, workspaceId],
  );
  if (rows.length === 0) return [];
  // The run's measured window: the first sample of any endpoint and machine to the last.
  const first = Math.min(...rows.map((row) => Number(row.first)));
  const last = Math.max(...rows.map((row) => Number(row.last)));
  const seconds = last > first ? (last - first) / 1000 : 0;

  interface Merged {
    name: string;
    requests: number;
    errors: number;
    maxMicros: number;
    buckets: string[];
  }
  const mergedOf = (row: EndpointRow): Merged => ({
    name: row.name,
    requests: Number(row.requests),
    errors: Number(row.errors),
    maxMicros: Number(row.max_micros ?? 0),
    buckets: row.buckets ? row.buckets.split(' ') : [],
  });
  const byRequests = (a: Merged, b: Merged) => b.requests - a.requests || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const named = rows.filter((row) => row.name !== otherEndpoint).map(mergedOf).sort(byRequests);
  const other: Merged = { name: otherEndpoint, requests: 0, errors: 0, maxMicros: 0, buckets: [] };
  let hasOther = false;
  for (const row of [...rows.filter((one) => one.name === otherEndpoint).map(mergedOf), ...named.splice(maxEndpointNames)]) {
    hasOther = true;
    other.requests += row.requests;
    other.errors += row.errors;
    other.maxMicros = Math.max(other.maxMicros, row.maxMicros);
    other.buckets.push(...row.buckets);
  }
  const kept = new Set(named.map((one) => one.name));
  const timelines = withTimeline
    ? await readEndpointTimelines(sql, workspaceId, taskId, (name) => (kept.has(name) ? name : otherEndpoint), { first, last })
    : null;
  const result = (one: Merged): EndpointResult => {
    // One decode of the merged buckets for the three percentiles.
    const [p50, p95, p99] = one.buckets.length > 0 ? mergedPercentiles(one.buckets, [50, 95, 99], one.maxMicros).map((value) => round(value)) : [0, 0, 0];
    return {
      name: one.name,
      requests: one.requests,
      errors: one.errors,
      error_rate: one.requests > 0 ? round(Math.min(1, one.errors / one.requests), 6) : 0,
      requests_per_sec: seconds > 0 ? round(one.requests / seconds, 2) : 0,
      p50: p50!,
      p95: p95!,
      p99: p99!,
      max: round(one.maxMicros / 1000),
      ...(timelines ? { timeline: timelines.get(one.name) ?? [] } : {}),
    };
  };
  const answer = [...named.map(result), ...(hasOther ? [result(other)] : [])];
  metricAnswers.set(key, version, answer, 256 + answer.length * (200 + (timelines ? 100 * Math.max(0, (last - first) / 60_000 + 1) : 0)));
  return answer;
}

/** The task's error groups, the most frequent first (at most maxErrorGroupsListed). */
export async function readRunErrors(sql: Sql, workspaceId: string, taskId: string): Promise<ErrorGroupResult[]> {
  const rows = await sql.all<{ endpoint: string; kind: ErrorGroupResult['kind']; code: string; message: string; count: number | string }>(
    `select endpoint, kind, code, message, count from task_error_groups where task_id = ? and workspace_id = ?
     order by count desc, endpoint, kind, code limit ?`,
    [taskId, workspaceId, maxErrorGroupsListed],
  );
  return rows.map((row) => ({ endpoint: row.endpoint, kind: row.kind, code: row.code, message: row.message, count: Number(row.count) }));
}
