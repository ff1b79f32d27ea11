import { describe, expect, test } from 'bun:test';
import { DomainError } from '../kernel/errors.ts';
import { type CursorRow, encodeCursor, type PageLoad, pagedList, parsePageRequest, utf8Length } from './paging.ts';

interface Row extends CursorRow {
  text: string;
}

/** Rows newest first, as the services keep them, and a loader that answers keyset pages of them like a database. */
function table(count: number, textOf: (index: number) => string) {
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, count - i)),
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    text: textOf(i),
  }));
  const loads: number[] = [];
  const load = async (page: PageLoad) => {
    loads.push(page.limit);
    const after = page.after;
    const rest = after ? rows.filter((row) => row.createdAt < after.createdAt || (row.createdAt.getTime() === after.createdAt.getTime() && row.id < after.id)) : rows;
    return rest.slice(0, page.limit + 1);
  };
  return { rows, load, loads };
}

function context(query: { limit?: string; cursor?: string }) {
  const headers: Record<string, string> = {};
  return { query, request: new Request('http://localhost/api/v1/things?limit=5&x=1'), set: { headers }, headers };
}

describe('page requests', () => {
  test('limit defaults to 100, an empty one too; 1..1000 or a 400 naming the field', () => {
    expect(parsePageRequest({}).limit).toBe(100);
    expect(parsePageRequest({ limit: '' }).limit).toBe(100);
    expect(parsePageRequest({ limit: '1000' }).limit).toBe(1000);
    for (const bad of ['0', '1001', '-1', '1.5', 'ten', ' 5']) {
      expect(() => parsePageRequest({ limit: bad }), bad).toThrow(DomainError);
    }
    expect(() => parsePageRequest({ limit: 'x' })).toThrow(/limit must be a whole number from 1 to 1000/);
  });

  test('a cursor round-trips; an empty one is the first page; garbage is a 400', () => {
    const row = { createdAt: new Date('2026-05-01T10:00:00.123Z'), id: '0f9a3c52-4c1e-4f5e-9b1a-7f2b3c4d5e6f' };
    expect(parsePageRequest({ cursor: encodeCursor(row) }).after).toEqual(row);
    expect(parsePageRequest({ cursor: '' }).after).toBeNull();
    expect(() => parsePageRequest({ cursor: 'not-a-cursor' })).toThrow(/cursor is not valid/);
  });

  test('utf8Length counts UTF-8 bytes', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€\u0000', '\ud800x', 'x\udc00']) expect(utf8Length(text)).toBe(new TextEncoder().encode(text).byteLength);
  });
});

describe('pagedList', () => {
  test('pages by limit with Link and X-Next-Cursor; the last page has neither', async () => {
    const { rows, load } = table(7, (i) => `row ${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const ctx = context({ limit: '3', ...(cursor ? { cursor } : {}) });
      const page = await pagedList(ctx, load, (row) => row.id);
      seen.push(...page);
      cursor = ctx.headers['x-next-cursor'];
      if (!cursor) {
        expect(ctx.headers.link).toBeUndefined();
        break;
      }
      expect(ctx.headers.link).toBe(`</api/v1/things?limit=3&x=1&cursor=${cursor}>; rel="next"`);
    }
    expect(seen).toEqual(rows.map((row) => row.id));
  });

  test('stops once the page passes the byte budget, never before the first row, and the rest follows', async () => {
    const { rows, load } = table(10, (i) => 'x'.repeat(i === 0 ? 5000 : 300));
    const first = context({ limit: '1000' });
    const page = await pagedList(first, load, (row) => row, { byteBudget: 1000 });
    // The first row alone is over the budget and still comes: a page always advances.
    expect(page).toHaveLength(1);
    expect(first.headers['x-next-cursor']).toBeDefined();
    const second = context({ limit: '1000', cursor: first.headers['x-next-cursor'] });
    const next = await pagedList(second, load, (row) => row, { byteBudget: 1000 });
    expect(utf8Length(JSON.stringify(next))).toBeLessThanOrEqual(1000);
    expect(next.length).toBe(2);
    expect(next[0]!.id).toBe(rows[1]!.id);
  });

  test('big rows are loaded in small batches, so a page never holds much more than its budget in memory', async () => {
    const { load, loads } = table(40, () => 'y'.repeat(100_000));
    const ctx = context({ limit: '1000' });
    const page = await pagedList(ctx, load, (row) => row.text);
    // 4 MiB of 100 kB rows: 41 rows fit, so all 40 come, in batches sized by what the first rows weighed.
    expect(page).toHaveLength(40);
    expect(ctx.headers.link).toBeUndefined();
    expect(loads[0]).toBe(16);
    expect(Math.max(...loads.slice(1))).toBeLessThanOrEqual(11);
  });

  test('small rows come in few batches', async () => {
    const { load, loads } = table(1500, (i) => `r${i}`);
    const ctx = context({ limit: '1000' });
    expect(await pagedList(ctx, load, (row) => row.id)).toHaveLength(1000);
    expect(loads.length).toBeLessThanOrEqual(2);
    expect(ctx.headers['x-next-cursor']).toBeDefined();
  });

  test('an oldest-first list pages forward with the same cursor', async () => {
    const rows: Row[] = Array.from({ length: 5 }, (_, i) => ({
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      text: '',
    }));
    const filters: object[] = [];
    const load = async (page: PageLoad) => {
      filters.push(page.filter);
      const after = page.after;
      return (after ? rows.filter((row) => row.createdAt > after.createdAt) : rows).slice(0, page.limit + 1);
    };
    const first = context({ limit: '2' });
    expect(await pagedList(first, load, (row) => row.id, { order: 'asc' })).toEqual([rows[0]!.id, rows[1]!.id]);
    const second = context({ limit: '2', cursor: first.headers['x-next-cursor'] });
    expect(await pagedList(second, load, (row) => row.id, { order: 'asc' })).toEqual([rows[2]!.id, rows[3]!.id]);
    expect(JSON.stringify(filters.at(-1))).toContain('$gt');
  });
});
