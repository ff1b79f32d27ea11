/** Keyset paging for lists: `?limit=` (default 100, at most 1000), an opaque `?cursor=`, a byte budget per page; the next page is in Link and X-Next-Cursor. */
import { badRequest } from '../kernel/errors.ts';
import { t } from 'elysia';

export const defaultPageSize = 100;
export const maxPageSize = 1000;
/** A page stops early once its JSON passes this many bytes (a page of 1,000 tests with 1 MiB scripts would be ~1 GB). */
export const defaultPageByteBudget = 4 * 1024 * 1024;

export const PageQuery = t.Object(
  {
    // A string at runtime so a bad value gets our own message; the OpenAPI document shows it as the integer it is.
    limit: t.Optional(t.String({ description: `page size, 1..${maxPageSize} (default ${defaultPageSize}); empty means the default` })),
    cursor: t.Optional(t.String({ description: 'opaque cursor from X-Next-Cursor; empty means the first page' })),
  },
  // Unknown query parameters (cache busters, tracing) are ignored, not refused; bodies stay strict.
  { additionalProperties: true },
);

export type Order = 'asc' | 'desc';
export interface CursorRow {
  createdAt: Date;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: CursorRow | null;
}

export function parsePageRequest(query: { limit?: string; cursor?: string }): PageRequest {
  let limit = defaultPageSize;
  // `?limit=` with no value is the default, as an absent parameter is (forms and generated clients send it).
  if (query.limit !== undefined && query.limit !== '') {
    if (!/^\d+$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > maxPageSize) {
      throw badRequest(`limit must be a whole number from 1 to ${maxPageSize}`, { field: 'limit' });
    }
    limit = Number(query.limit);
  }
  return { limit, after: query.cursor ? decodeCursor(query.cursor) : null };
}

function decodeCursor(cursor: string): CursorRow {
  try {
    const [time, id] = atob(cursor.replaceAll('-', '+').replaceAll('_', '/')).split('|');
    const createdAt = new Date(time ?? '');
    if (Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/.test(id)) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw badRequest('cursor is not valid; use the X-Next-Cursor value of a previous page', { field: 'cursor' });
  }
}

export function encodeCursor(row: CursorRow): string {
  return btoa(`${row.createdAt.toISOString()}|${row.id}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The MikroORM filter for rows after the cursor, in the list's order (newest first unless told otherwise). */
export function afterCursorFilter(after: PageRequest['after'], order: Order = 'desc') {
  if (!after) return {};
  const beyond = order === 'desc' ? '$lt' : '$gt';
  return { $or: [{ createdAt: { [beyond]: after.createdAt } }, { createdAt: after.createdAt, id: { [beyond]: after.id } }] };
}

export const newestFirst = { createdAt: 'desc', id: 'desc' } as const;

/** Sets Link and X-Next-Cursor for the page that starts after `last`. */
export function setNextPage(last: CursorRow, limit: number, request: Request, headers: Record<string, string | number>): void {
  const cursor = encodeCursor(last);
  const next = new URL(request.url);
  next.searchParams.set('cursor', cursor);
  next.searchParams.set('limit', String(limit));
  headers['x-next-cursor'] = cursor;
  headers.link = `<${next.pathname}${next.search}>; rel="next"`;
}

const encoder = new TextEncoder();
/** UTF-8 length of a string (native encoding is faster than counting in a loop, even with the copy). */
export const utf8Length = (text: string): number => encoder.encode(text).byteLength;

export interface PageLoad {
  /** Rows wanted; load up to one more, so the caller learns whether any remain. */
  limit: number;
  /** MikroORM filter for the rows after the cursor (for loaders that use MikroORM). */
  filter: object;
  /** The cursor itself (for loaders that write SQL). */
  after: CursorRow | null;
}

export interface PagedListOptions<Row> {
  order?: Order;
  byteBudget?: number;
  /** The keyset of a row, when the row is not itself {createdAt, id}. */
  cursorOf?: (row: Row) => CursorRow;
}

/** First batch small: rows may be large (a test holds up to 1 MiB of script); later batches aim at about 1 MiB each. */
const firstBatch = 16;
const batchBytes = 1024 * 1024;

/**
 * The whole of a paged list route: parse ?limit/?cursor, load rows in batches, stop at the limit or once the page's
 * JSON passes the byte budget (never before the first row, so every page advances), set the next-page headers.
 */
export async function pagedList<Row, View>(
  context: { query: { limit?: string; cursor?: string }; request: Request; set: { headers: unknown } },
  load: (page: PageLoad) => Promise<Row[]>,
  view: (row: Row) => View,
  options: PagedListOptions<Row> = {},
): Promise<View[]> {
  const page = parsePageRequest(context.query);
  const order = options.order ?? 'desc';
  const budget = options.byteBudget ?? defaultPageByteBudget;
  const cursorOf = options.cursorOf ?? ((row: Row) => row as unknown as CursorRow);
  const views: View[] = [];
  let bytes = 2; // the brackets
  let after = page.after;
  let batch = Math.min(page.limit, firstBatch);
  for (;;) {
    const want = Math.min(batch, page.limit - views.length);
    const rows = await load({ limit: want, filter: afterCursorFilter(after, order), after });
    for (const row of rows.slice(0, want)) {
      const item = view(row);
      const size = utf8Length(JSON.stringify(item)) + 1; // and its comma
      if (views.length > 0 && bytes + size > budget) {
        setNextPage(after!, page.limit, context.request, context.set.headers as Record<string, string>);
        return views;
      }
      views.push(item);
      bytes += size;
      after = cursorOf(row);
    }
    // Fewer rows than asked for plus one: nothing remains after them.
    if (rows.length <= want) return views;
    if (views.length >= page.limit) {
      setNextPage(after!, page.limit, context.request, context.set.headers as Record<string, string>);
      return views;
    }
    batch = Math.max(1, Math.floor(batchBytes / Math.max(1, bytes / views.length)));
  }
}
