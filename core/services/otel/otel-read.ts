/**
 * Reads a run's OpenTelemetry series and points, paged: a page holds up to `limit` series (in creation order) and at
 * most `maxPointsPerPage` points; a series cut by the point budget continues on the next page.
 */
import { badRequest } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import { placeholders, sqlOf } from '../sql.ts';

export interface OtelSeriesView {
  name: string;
  unit: string;
  type: string;
  labels: Record<string, string>;
  /** [unix seconds (fractional), value], oldest first. */
  points: [number, number][];
}

/** Where the next page starts: a series, and the time (µs) after which its points continue (null: from its start). */
export interface OtelCursor {
  seriesId: number;
  afterUs: number | null;
}

export const maxPointsPerPage = 50_000;

export function encodeOtelCursor(cursor: OtelCursor): string {
  return btoa(`otel|${cursor.seriesId}|${cursor.afterUs ?? ''}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function decodeOtelCursor(text: string): OtelCursor {
  try {
    const [tag, series, after] = atob(text.replaceAll('-', '+').replaceAll('_', '/')).split('|');
    if (tag !== 'otel' || !/^\d+$/.test(series ?? '') || !/^\d*$/.test(after ?? 'x')) throw new Error('bad cursor');
    return { seriesId: Number(series), afterUs: after ? Number(after) : null };
  } catch {
    throw badRequest('cursor is not valid; use the X-Next-Cursor value of a previous page', { field: 'cursor' });
  }
}

interface SeriesRow {
  id: number | string;
  name: string;
  unit: string;
  kind: string;
  labels: Record<string, string> | string;
}

export function createOtelRead(deps: { db: Database; maxPointsPerPage?: number }) {
  const budget = deps.maxPointsPerPage ?? maxPointsPerPage;
  return {
    /** One page of the task's series (the caller has already checked the task is in their workspace). */
    async page(taskId: string, options: { limit: number; cursor: OtelCursor | null; metric?: string }): Promise<{ metrics: OtelSeriesView[]; next: OtelCursor | null }> {
      const sql = sqlOf(deps.db);
      const { limit, cursor, metric } = options;
      const series = await sql.all<SeriesRow>(
        `select id, name, unit, kind, labels from otel_series
         where task_id = ?${metric ? ' and name = ?' : ''}${cursor ? ' and id >= ?' : ''}
         order by id limit ?`,
        [taskId, ...(metric ? [metric] : []), ...(cursor ? [cursor.seriesId] : []), limit + 1],
      );
      const onPage = series.slice(0, limit);
      if (onPage.length === 0) return { metrics: [], next: null };
      const ids = onPage.map((row) => Number(row.id));
      const resume = cursor && cursor.afterUs !== null && ids[0] === cursor.seriesId ? cursor : null;
      const points = await sql.all<{ series_id: number | string; us: number | string; value: number }>(
        `select series_id, (extract(epoch from time) * 1000000)::float8 as us, value from otel_points
         where series_id in (${placeholders(ids)})${resume ? ' and (series_id <> ? or time > to_timestamp(? / 1000000.0))' : ''}
         order by series_id, time limit ?`,
        [...ids, ...(resume ? [resume.seriesId, resume.afterUs] : []), budget + 1],
      );
      const cut = points.length > budget;
      const kept = cut ? points.slice(0, budget) : points;
      const bySeries = new Map<number, [number, number][]>();
      for (const point of kept) {
        const id = Number(point.series_id);
        let list = bySeries.get(id);
        if (!list) bySeries.set(id, (list = []));
        list.push([Math.round(Number(point.us)) / 1e6, Number(point.value)]);
      }
      const lastId = cut ? Number(kept[kept.length - 1]!.series_id) : null;
      const metrics: OtelSeriesView[] = [];
      for (const row of onPage) {
        const id = Number(row.id);
        if (lastId !== null && id > lastId) break;
        const list = bySeries.get(id);
        if (!list) continue;
        metrics.push({
          name: row.name,
          unit: row.unit,
          type: row.kind,
          labels: typeof row.labels === 'string' ? (JSON.parse(row.labels) as Record<string, string>) : row.labels,
          points: list,
        });
      }
      let next: OtelCursor | null = null;
      if (cut) next = { seriesId: lastId!, afterUs: Math.round(Number(kept[kept.length - 1]!.us)) };
      else if (series.length > limit) next = { seriesId: Number(series[limit]!.id), afterUs: null };
      return { metrics, next };
    },
  };
}

export type OtelRead = ReturnType<typeof createOtelRead>;
