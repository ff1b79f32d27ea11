/**
 * Stores an OTLP metrics export for the caller's workspace: each point goes to the run it names or to the one run
 * active at its time, never to another workspace's; series are created as needed (a per-process cache of their ids
 * saves the lookup), and points go in as one multi-row insert per request.
 */
import { attributeByTime, type PointSamples, refuse, type RunWindow, type Sample } from '../../domain/otlp/otel-samples.ts';
import { isPublicId } from '../../domain/public-id.ts';
import type { Database } from '../../ports/database.ts';
import { placeholders, sqlOf, type Sql } from '../sql.ts';
import { isUuid } from '../workspace-scope.ts';

export interface IngestResult {
  accepted: number;
  rejected: number;
  /** Why points were refused (empty when none were), for OTLP's partial_success.error_message. */
  message: string;
}

export interface OtelIngestOptions {
  db: Database;
  /** A run keeps receiving points this long after it ended (the exporter's last interval). */
  graceSeconds?: number;
  /** Series one run may hold; points of further series are refused. */
  maxSeriesPerTask?: number;
}

const cacheLimit = 100_000;
/**
 * The caches are dropped this often: a run deleted meanwhile (a retention job, a deleted workspace) is forgotten
 * within this time, so points stop going to series that no longer exist (points have no foreign key: see 0012).
 */
const cacheLifetimeMs = 60_000;

export function createOtelIngest(options: OtelIngestOptions) {
  const graceUs = (options.graceSeconds ?? 10) * 1e6;
  const maxSeries = options.maxSeriesPerTask ?? 10_000;
  // (task, name, labels) -> series id. Only ids of rows that exist go in; dropped wholesale when full.
  const seriesIds = new Map<string, number>();
  const seriesKey = (taskId: string, sample: Sample) => `${taskId}\u0000${sample.name}\u0000${sample.labelsKey}`;
  // (workspace, ref) -> task id: a task never changes workspace, so a found ref stays valid (a miss is never kept).
  const taskIds = new Map<string, string>();
  let cachedSince = Date.now();
  const expireCaches = (force = false) => {
    if (!force && Date.now() - cachedSince < cacheLifetimeMs) return;
    seriesIds.clear();
    taskIds.clear();
    cachedSince = Date.now();
  };

  /** Tasks of the workspace named by the points' refs (UUIDs or public ids), by ref. */
  async function tasksByRef(sql: Sql, workspaceId: string, allRefs: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const refs: string[] = [];
    for (const ref of allRefs) {
      const cached = taskIds.get(`${workspaceId}\u0000${ref}`);
      if (cached) found.set(ref, cached);
      else refs.push(ref);
    }
    const ids = refs.filter((ref) => isUuid(ref.trim())).map((ref) => ref.trim().toLowerCase());
    const publicIds = refs.filter((ref) => isPublicId(ref.trim().toLowerCase())).map((ref) => ref.trim().toLowerCase());
    if (ids.length === 0 && publicIds.length === 0) return found;
    const rows = await sql.all<{ id: string; public_id: string }>(
      `select id, public_id from tasks where workspace_id = ? and (id in (${placeholders(ids)}) or public_id in (${placeholders(publicIds)}))`,
      [workspaceId, ...ids, ...publicIds],
    );
    for (const ref of refs) {
      const key = ref.trim().toLowerCase();
      const row = rows.find((r) => String(r.id) === key || r.public_id === key);
      if (!row) continue;
      found.set(ref, String(row.id));
      if (taskIds.size >= cacheLimit) taskIds.clear();
      taskIds.set(`${workspaceId}\u0000${ref}`, String(row.id));
    }
    return found;
  }

  /** The workspace's runs that overlap [fromUs, toUs] (with the grace after their end). */
  async function windows(sql: Sql, workspaceId: string, fromUs: number, toUs: number): Promise<RunWindow[]> {
    const rows = await sql.all<{ id: string; start_us: number | string; end_us: number | string | null }>(
      `select id, (extract(epoch from started_at) * 1000000)::float8 as start_us, (extract(epoch from finished_at) * 1000000)::float8 as end_us
       from tasks
       where workspace_id = ? and started_at is not null and started_at <= to_timestamp(? / 1000000.0)
         and (finished_at is null or finished_at >= to_timestamp(? / 1000000.0))`,
      [workspaceId, toUs, fromUs - graceUs],
    );
    return rows.map((row) => ({ id: String(row.id), startUs: Number(row.start_us), endUs: row.end_us === null ? null : Number(row.end_us) }));
  }

  /** Series ids for the samples' (task, name, labels), creating the missing ones; series over a run's cap get none. */
  async function resolveSeries(sql: Sql, workspaceId: string, wanted: Map<string, { taskId: string; sample: Sample }>): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const missing: { taskId: string; sample: Sample; key: string }[] = [];
    for (const [key, entry] of wanted) {
      const id = seriesIds.get(key);
      if (id === undefined) missing.push({ ...entry, key });
      else ids.set(key, id);
    }
    if (missing.length === 0) return ids;
    const lookup = async () => {
      const rows = await sql.all<{ id: number | string; task_id: string; name: string; labels_key: string }>(
        `select s.id, s.task_id, s.name, s.labels_key from otel_series s
         join json_to_recordset(?::json) as x(t uuid, n text, k text) on s.task_id = x.t and s.name = x.n and s.labels_key = x.k`,
        [JSON.stringify(missing.map((m) => ({ t: m.taskId, n: m.sample.name, k: m.sample.labelsKey })))],
      );
      for (const row of rows) {
        const key = `${row.task_id}\u0000${row.name}\u0000${row.labels_key}`;
        ids.set(key, Number(row.id));
        if (seriesIds.size >= cacheLimit) seriesIds.clear();
        seriesIds.set(key, Number(row.id));
      }
    };
    await lookup();
    const toCreate = missing.filter((m) => !ids.has(m.key));
    if (toCreate.length === 0) return ids;
    // The cap per run: count what each run holds before adding (a race may overshoot it by one batch; no more).
    const tasks = [...new Set(toCreate.map((m) => m.taskId))];
    const counts = await sql.all<{ task_id: string; n: number }>(
      `select task_id, count(*)::int as n from otel_series where task_id in (${placeholders(tasks)}) group by task_id`,
      tasks,
    );
    const held = new Map(counts.map((row) => [String(row.task_id), Number(row.n)]));
    const allowed = toCreate.filter((m) => {
      const n = held.get(m.taskId) ?? 0;
      if (n >= maxSeries) return false;
      held.set(m.taskId, n + 1);
      return true;
    });
    if (allowed.length > 0) {
      await sql.all(
        `insert into otel_series (workspace_id, task_id, name, unit, kind, labels, labels_key)
         select ?, x.t, x.n, x.u, x.c, x.l::jsonb, x.k from json_to_recordset(?::json) as x(t uuid, n text, u text, c text, l text, k text)
         on conflict (task_id, name, labels_key) do nothing`,
        [
          workspaceId,
          JSON.stringify(allowed.map((m) => ({ t: m.taskId, n: m.sample.name, u: m.sample.unit, c: m.sample.kind, l: JSON.stringify(m.sample.labels), k: m.sample.labelsKey }))),
        ],
      );
      await lookup();
    }
    return ids;
  }

  return {
    /** Attributes, stores and counts the points of one export for `workspaceId`. */
    async ingest(workspaceId: string, points: PointSamples[], refused: Map<string, number>): Promise<IngestResult> {
      expireCaches();
      try {
        return await store(workspaceId, points, new Map(refused));
      } catch (error) {
        // A run deleted since its id was cached: forget everything cached and place the points afresh, once.
        if (!isForeignKeyViolation(error)) throw error;
        expireCaches(true);
        return store(workspaceId, points, refused);
      }
    },
  };

  async function store(workspaceId: string, points: PointSamples[], refused: Map<string, number>): Promise<IngestResult> {
    const sql = sqlOf(options.db);
    const refs = [...new Set(points.map((p) => p.taskRef).filter((ref): ref is string => ref !== null))];
    const named = refs.length > 0 ? await tasksByRef(sql, workspaceId, refs) : new Map<string, string>();
    const byTime = points.filter((p) => p.taskRef === null);
    const runWindows =
      byTime.length > 0 ? await windows(sql, workspaceId, Math.min(...byTime.map((p) => p.timeUs)), Math.max(...byTime.map((p) => p.timeUs))) : [];

    const placed: { taskId: string; point: PointSamples }[] = [];
    for (const point of points) {
      if (point.taskRef !== null) {
        const taskId = named.get(point.taskRef);
        // One message for a foreign id and a made-up one: the answer is no oracle for other workspaces' runs.
        if (taskId) placed.push({ taskId, point });
        else refuse(refused, `no task ${JSON.stringify(point.taskRef.slice(0, 64))} in this workspace`);
        continue;
      }
      const attribution = attributeByTime(runWindows, point.timeUs, graceUs);
      if ('taskId' in attribution) placed.push({ taskId: attribution.taskId, point });
      else refuse(refused, attribution.refused);
    }

    const wanted = new Map<string, { taskId: string; sample: Sample }>();
    for (const { taskId, point } of placed) for (const sample of point.samples) wanted.set(seriesKey(taskId, sample), { taskId, sample });
    const ids = wanted.size > 0 ? await resolveSeries(sql, workspaceId, wanted) : new Map<string, number>();

    // One row per (series, time): the last value wins within a request, the first across requests (retries).
    const rows = new Map<string, [number, number, number]>();
    let accepted = 0;
    for (const { taskId, point } of placed) {
      const pointRows: [number, number, number][] = [];
      for (const sample of point.samples) {
        const id = ids.get(seriesKey(taskId, sample));
        if (id !== undefined) pointRows.push([id, sample.timeUs, sample.value]);
      }
      if (pointRows.length === 0) {
        refuse(refused, `the run already holds ${maxSeries} series; points of new series are refused`);
        continue;
      }
      accepted += 1;
      for (const row of pointRows) rows.set(`${row[0]}:${row[1]}`, row);
    }
    if (rows.size > 0) {
      await sql.all(
        `insert into otel_points (series_id, time, value)
         select x.s, to_timestamp(x.t / 1000000.0), x.v from json_to_recordset(?::json) as x(s bigint, t float8, v float8)
         on conflict (series_id, time) do nothing`,
        [JSON.stringify([...rows.values()].map(([s, t, v]) => ({ s, t, v })))],
      );
    }
    const rejected = [...refused.values()].reduce((sum, n) => sum + n, 0);
    const message = [...refused.entries()].map(([reason, n]) => `${n} data point${n === 1 ? '' : 's'}: ${reason}`).join('; ');
    return { accepted, rejected, message };
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23503') return true;
  return false;
}

export type OtelIngest = ReturnType<typeof createOtelIngest>;
