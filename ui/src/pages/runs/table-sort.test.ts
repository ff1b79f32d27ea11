/** Sorting a table by a column: order, direction changes and aria-sort. */
import { describe, expect, test } from 'bun:test';
import { ariaSort, nextSort, sortRows, type Sort } from './table-sort';

interface Row {
  name: string;
  requests: number;
}
const rows: Row[] = [
  { name: 'login', requests: 10 },
  { name: 'Home', requests: 30 },
  { name: 'step 10', requests: 10 },
  { name: 'step 2', requests: 20 },
];

describe('table sort', () => {
  test('numbers by value, ties in their order', () => {
    expect(sortRows(rows, { key: 'requests', direction: 'descending' }).map((r) => r.name)).toEqual(['Home', 'step 2', 'login', 'step 10']);
    expect(sortRows(rows, { key: 'requests', direction: 'ascending' }).map((r) => r.name)).toEqual(['login', 'step 10', 'step 2', 'Home']);
  });
  test('text by locale, case-insensitive, numbers within text in numeric order', () => {
    expect(sortRows(rows, { key: 'name', direction: 'ascending' }).map((r) => r.name)).toEqual(['Home', 'login', 'step 2', 'step 10']);
  });
  test('a header press flips its column or starts another', () => {
    const sort: Sort<'name' | 'requests'> = { key: 'requests', direction: 'descending' };
    expect(nextSort(sort, 'requests', 'descending')).toEqual({ key: 'requests', direction: 'ascending' });
    expect(nextSort(sort, 'name', 'ascending')).toEqual({ key: 'name', direction: 'ascending' });
    expect(ariaSort(sort, 'requests')).toBe('descending');
    expect(ariaSort(sort, 'name')).toBe('none');
  });
  test('the input is not changed', () => {
    const copy = [...rows];
    sortRows(rows, { key: 'name', direction: 'descending' });
    expect(rows).toEqual(copy);
  });
});
