/**
 * Sorting a table by a column: the sort state, the next state when a header is pressed, the rows in that order and the
 * header's aria-sort. Exports: Sort, SortDirection, nextSort, sortRows, ariaSort.
 */

export type SortDirection = 'ascending' | 'descending';

export interface Sort<K extends string> {
  key: K;
  direction: SortDirection;
}

/** Pressing a header: the same column flips; another starts with its first direction (numbers: largest first). */
export function nextSort<K extends string>(current: Sort<K>, key: K, firstDirection: SortDirection): Sort<K> {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: firstDirection };
}

/** A copy of the rows in the sort's order: numbers by value, text by locale (numeric aware); ties keep their order. */
export function sortRows<T, K extends string & keyof T>(rows: readonly T[], sort: Sort<K>): T[] {
  const factor = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[sort.key] as unknown;
      const y = b.row[sort.key] as unknown;
      let order: number;
      if (typeof x === 'number' && typeof y === 'number') order = x - y;
      else order = String(x ?? '').localeCompare(String(y ?? ''), 'en', { numeric: true, sensitivity: 'base' });
      return order !== 0 ? order * factor : a.index - b.index;
    })
    .map(({ row }) => row);
}

/** The aria-sort of a column's header: its direction when the table is sorted by it, else none. */
export function ariaSort<K extends string>(sort: Sort<K>, key: K): SortDirection | 'none' {
  return sort.key === key ? sort.direction : 'none';
}
