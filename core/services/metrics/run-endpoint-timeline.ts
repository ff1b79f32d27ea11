/**
 * A run's results per endpoint and minute, merged across machines (task_endpoint_timeline, migration 0021): written
 * when a machine's minute closes, read for the endpoints table's sparklines and the top-10 chart together with the
 * minutes still open. Percentiles come from the merged histograms, never averaged.
 */
import { LatencyHistogram, mergedPercentiles, mergeEncodedHistograms, type EncodedHistogram } from '../../domain/metrics/histogram.ts';
import type { Sql } from '../sql.ts';

/** One minute of one endpoint. */
export interface EndpointMinute {
  /** Unix seconds: the start of the minute. */
  t: number;
  /** The minute's requests over the seconds of it the run measured (a run's first and last minutes are partial). */
  requests_per_sec: number;
  /** errors / requests, 0..1 (0 without requests). */
  error_rate: number;
  /** Milliseconds, from the merged histogram of every machine (0 without requests). */
  p95: number;
}

export interface ClosedMinute {
  name: string;
  minute: number | string;
  requests: number | string;
  errors: number | string;
  histogram: EncodedHistogram | string;
}

const parsed = (histogram: EncodedHistogram | string): EncodedHistogram =>
  typeof histogram === 'string' ? (JSON.parse(histogram) as EncodedHistogram) : histogram;

/**
 * Merges a machine's closed minutes into the run's timeline rows (in the transaction that folds them). Rows are
 * created and locked in one order (name, minute), so machines folding the same minutes together wait for each other
 * instead of deadlocking.
 */
export async function storeClosedMinutes(tx: Sql, owner: { workspaceId: string; taskId: string }, closed: readonly ClosedMinute[]): Promise<void> {
  if (closed.length === 0) return;
  const merged = new Map<string, { name: string; minute: number; histograms: EncodedHistogram[]; requests: number; errors: number }>();
  for (const row of closed) {
    const minute = Number(row.minute);
    const key = JSON.stringify([row.name, minute]);
    let one = merged.get(key);
    if (!one) merged.set(key, (one = { name: row.name, minute, histograms: [], requests: 0, errors: 0 }));
    one.histograms.push(parsed(row.histogram));
    one.requests += Number(row.requests);
    one.errors += Number(row.errors);
  }
  const ordered = [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.minute - b.minute));
  const keys = JSON.stringify(ordered.map(({ name, minute }) => ({ name, minute })));
  await tx.all(
    `insert into task_endpoint_timeline (task_id, workspace_id, name, minute, histogram)
     select ?, ?, r.name, r.minute, ?::jsonb from json_to_recordset(?::json) as r(name text, minute bigint)
     order by r.name, r.minute
     on conflict do nothing`,
    [owner.taskId, owner.workspaceId, JSON.stringify(new LatencyHistogram().encode()), keys],
  );
  const current = await tx.all<ClosedMinute>(
    `select t.name, t.minute, t.requests, t.errors, t.histogram from task_endpoint_timeline t
     join json_to_recordset(?::json) as r(name text, minute bigint) on t.name = r.name and t.minute = r.minute
     where t.task_id = ?
     order by t.name, t.minute
     for update of t`,
    [keys, owner.taskId],
  );
  const updates = current.map((row) => {
    const one = merged.get(JSON.stringify([row.name, Number(row.minute)]))!;
    return {
      name: row.name,
      minute: one.minute,
      requests: Number(row.requests) + one.requests,
      errors: Number(row.errors) + one.errors,
      // decode(stored).merge(the machine's minutes merged).encode(), in two passes without a Map (mergeEncodedHistograms).
      histogram: mergeEncodedHistograms([parsed(row.histogram), mergeEncodedHistograms(one.histograms)], { firstDecoded: true }),
    };
  });
  await tx.all(
    `update task_endpoint_timeline t set requests = r.requests, errors = r.errors, histogram = r.histogram
     from json_to_recordset(?::json) as r(name text, minute bigint, requests bigint, errors bigint, histogram jsonb)
     where t.task_id = ? and t.name = r.name and t.minute = r.minute`,
    [JSON.stringify(updates), owner.taskId],
  );
}

interface MinuteRow {
  name: string;
  minute: number | string;
  requests: number | string;
  errors: number | string;
  max_micros: number | string | null;
  buckets: string | null;
}

/**
 * Each endpoint's minutes from the run's first minute to its last (zeros where it had no samples), oldest first.
 * `groupOf` maps a stored name to the row it is shown in (names past the 200th read as `(other)`); `window` is the
 * run's measured window in milliseconds, so the edge minutes divide by the seconds measured, not by 60.
 */
export async function readEndpointTimelines(
  sql: Sql,
  workspaceId: string | null,
  taskId: string,
  groupOf: (name: string) => string,
  window: { first: number; last: number },
): Promise<Map<string, EndpointMinute[]>> {
  const scope = workspaceId === null ? '' : ' and workspace_id = ?';
  const scoped = (params: unknown[]) => (workspaceId === null ? params : [...params, workspaceId]);
  // Closed minutes (already merged across machines) and the minutes still open, summed per name and minute.
  const rows = await sql.all<MinuteRow>(
    `select name, minute, sum(requests)::float8 as requests, sum(errors)::float8 as errors, max((histogram->>'max')::float8) as max_micros,
       string_agg(nullif(histogram->>'buckets', ''), ' ') as buckets
     from (
       select name, minute, requests, errors, histogram from task_endpoint_timeline where task_id = ?${scope}
       union all
       select name, minute, requests, errors, histogram from task_endpoint_minutes where task_id = ?${scope} and minute >= 0
     ) m group by name, minute`,
    [...scoped([taskId]), ...scoped([taskId])],
  );
  const firstMinute = Math.floor(window.first / 60_000);
  const lastMinute = Math.max(firstMinute, Math.floor(window.last / 60_000));
  const minutes = lastMinute - firstMinute + 1;
  const grouped = new Map<string, { requests: number[]; errors: number[]; maxMicros: number[]; buckets: string[][] }>();
  for (const row of rows) {
    const slot = Number(row.minute) - firstMinute;
    if (slot < 0 || slot >= minutes) continue;
    const group = groupOf(row.name);
    let one = grouped.get(group);
    if (!one) {
      one = { requests: new Array(minutes).fill(0), errors: new Array(minutes).fill(0), maxMicros: new Array(minutes).fill(0), buckets: Array.from({ length: minutes }, () => []) };
      grouped.set(group, one);
    }
    one.requests[slot]! += Number(row.requests);
    one.errors[slot]! += Number(row.errors);
    one.maxMicros[slot] = Math.max(one.maxMicros[slot]!, Number(row.max_micros ?? 0));
    if (row.buckets) one.buckets[slot]!.push(...row.buckets.split(' '));
  }
  const measured = (slot: number) => {
    const start = (firstMinute + slot) * 60_000;
    const seconds = (Math.min(start + 60_000, window.last) - Math.max(start, window.first)) / 1000;
    return seconds > 0 ? seconds : 60;
  };
  const timelines = new Map<string, EndpointMinute[]>();
  for (const [group, one] of grouped) {
    timelines.set(
      group,
      one.requests.map((requests, slot) => ({
        t: (firstMinute + slot) * 60,
        requests_per_sec: Math.round((requests / measured(slot)) * 100) / 100,
        error_rate: requests > 0 ? Math.round(Math.min(1, one.errors[slot]! / requests) * 1e6) / 1e6 : 0,
        p95: one.buckets[slot]!.length > 0 ? Math.round(mergedPercentiles(one.buckets[slot]!, [95], one.maxMicros[slot]!)[0]! * 1000) / 1000 : 0,
      })),
    );
  }
  return timelines;
}
