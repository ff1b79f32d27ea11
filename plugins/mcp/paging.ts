/**
 * Paged list tools: `limit` and `cursor` arguments passed to REST as they are, and `next_cursor` in every answer; a list
 * filtered by what REST cannot filter by scans REST pages with a cursor of its own (`scanFiltered`).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { RestError, type RestClient } from './rest-client.ts';

/** Smaller than REST's 1000: a page is read by a model, whose context is the scarce resource. */
export const maxToolPage = 200;
export const defaultToolPage = 50;

export const pageArgs = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: maxToolPage, default: defaultToolPage, description: `items per page, 1..${maxToolPage} (default ${defaultToolPage})` }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, description: 'next_cursor of the previous page; omit for the first page' })),
};

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'pass as `cursor` to get the next page; null on the last page',
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{items, next_cursor}` of one kind of item. */
export const pageOf = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item), next_cursor: NextCursor });

/** Every list tool answers newest first, as REST lists do. */
export const newestFirst = 'Newest first.';

/** Where a filtered scan stopped: the REST page it was in (`c`, null: the first) and how far into it (`s`). */
interface ScanCursor {
  c: string | null;
  s: number;
}

const encodeScan = (cursor: ScanCursor) => btoa(JSON.stringify(cursor)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

function decodeScan(cursor: string | undefined, tool: string): ScanCursor {
  if (!cursor) return { c: null, s: 0 };
  try {
    const parsed = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))) as ScanCursor;
    if ((parsed.c === null || typeof parsed.c === 'string') && Number.isInteger(parsed.s) && parsed.s >= 0) return parsed;
  } catch {
    // Refused below.
  }
  throw new RestError(400, 'bad_request', `cursor is not valid; use the next_cursor of a previous ${tool} answer`);
}

export interface ScanOptions<T> {
  /** The tool, named in the message about a bad cursor. */
  tool: string;
  /** The REST list, read newest first. */
  path: string;
  keep: (item: T) => boolean;
  /** Items per REST page. */
  pageSize: number;
  /** A call stops after the page that reaches this many items looked at (next_cursor goes on from there). */
  maxScanned: number;
}

/**
 * A page of a REST list that has no filter for what a tool filters by: REST pages read newest first, the items kept
 * until `limit`, and a cursor of our own (REST's cursor and how far into that page) that resumes exactly where it stopped.
 */
export async function scanFiltered<T>(
  rest: RestClient,
  { limit = defaultToolPage, cursor }: { limit?: number; cursor?: string },
  options: ScanOptions<T>,
): Promise<{ items: T[]; next_cursor: string | null; scanned: number }> {
  let { c, s } = decodeScan(cursor, options.tool);
  const items: T[] = [];
  let scanned = 0;
  for (;;) {
    const page = await rest.page<T>(options.path, { limit: options.pageSize, cursor: c });
    for (let index = s; index < page.items.length; index++) {
      scanned++;
      const item = page.items[index]!;
      if (!options.keep(item)) continue;
      items.push(item);
      if (items.length === limit) {
        const more = index + 1 < page.items.length || page.next_cursor !== null;
        return { items, next_cursor: more ? encodeScan({ c, s: index + 1 }) : null, scanned };
      }
    }
    if (!page.next_cursor) return { items, next_cursor: null, scanned };
    c = page.next_cursor;
    s = 0;
    if (scanned >= options.maxScanned) return { items, next_cursor: encodeScan({ c, s }), scanned };
  }
}
