/** Keyset paging for lists: `?limit=` (default 100, at most 1000) and an opaque `?cursor=`; the next page is in Link and X-Next-Cursor. */
import { badRequest } from '../kernel/errors.ts';
import { t } from 'elysia';

export const defaultPageSize = 100;
export const maxPageSize = 1000;

export const PageQuery = t.Object(
  {
    limit: t.Optional(t.String({ description: `page size, 1..${maxPageSize} (default ${defaultPageSize})` })),
    cursor: t.Optional(t.String({ description: 'opaque cursor from X-Next-Cursor' })),
  },
  // Unknown query parameters (cache busters, tracing) are ignored, not refused; bodies stay strict.
  { additionalProperties: true },
);

export interface PageRequest {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

export function parsePageRequest(query: { limit?: string; cursor?: string }): PageRequest {
  let limit = defaultPageSize;
  if (query.limit !== undefined) {
    if (!/^\d+$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > maxPageSize) {
      throw badRequest(`limit must be a whole number from 1 to ${maxPageSize}`, { field: 'limit' });
    }
    limit = Number(query.limit);
  }
  return { limit, after: query.cursor ? decodeCursor(query.cursor) : null };
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [time, id] = atob(cursor.replaceAll('-', '+').replaceAll('_', '/')).split('|');
    const createdAt = new Date(time ?? '');
    if (Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/.test(id)) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw badRequest('cursor is not valid; use the X-Next-Cursor value of a previous page', { field: 'cursor' });
  }
}

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return btoa(`${row.createdAt.toISOString()}|${row.id}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The MikroORM filter for rows after the cursor, newest first. */
export function afterCursorFilter(after: PageRequest['after']) {
  if (!after) return {};
  return { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }] };
}

export const newestFirst = { createdAt: 'desc', id: 'desc' } as const;

/** Trims the extra row fetched to learn whether a next page exists, and sets the paging headers. */
export function finishPage<Row extends { createdAt: Date; id: string }>(
  rows: Row[],
  page: PageRequest,
  request: Request,
  headers: Record<string, string | number>,
): Row[] {
  if (rows.length <= page.limit) return rows;
  const pageRows = rows.slice(0, page.limit);
  const cursor = encodeCursor(pageRows.at(-1)!);
  const next = new URL(request.url);
  next.searchParams.set('cursor', cursor);
  next.searchParams.set('limit', String(page.limit));
  headers['x-next-cursor'] = cursor;
  headers.link = `<${next.pathname}${next.search}>; rel="next"`;
  return pageRows;
}

/** The whole of a paged list route: parse ?limit/?cursor, load one row more than the page, set the next-page headers, map to views. */
export async function pagedList<Row extends { createdAt: Date; id: string }, View>(
  context: { query: { limit?: string; cursor?: string }; request: Request; set: { headers: unknown } },
  load: (page: { limit: number; filter: object; after: PageRequest['after'] }) => Promise<Row[]>,
  view: (row: Row) => View,
): Promise<View[]> {
  const page = parsePageRequest(context.query);
  const rows = await load({ limit: page.limit, filter: afterCursorFilter(page.after), after: page.after });
  return finishPage(rows, page, context.request, context.set.headers as Record<string, string>).map(view);
}
