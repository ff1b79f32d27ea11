/** SortableHeader({ label, column, sort, onSort }): a column header whose button sorts the table by it (aria-sort tells the order). */
import type { ReactNode } from 'react';
import { ariaSort, type Sort, type SortDirection } from './table-sort';

export function SortableHeader<K extends string>(props: {
  label: ReactNode;
  column: K;
  sort: Sort<K>;
  onSort(column: K): void;
  numeric?: boolean;
  className?: string;
}) {
  const { label, column, sort, onSort, numeric = false, className } = props;
  const state: SortDirection | 'none' = ariaSort(sort, column);
  return (
    <th scope="col" className={[numeric ? 'num' : '', className ?? ''].filter(Boolean).join(' ') || undefined} aria-sort={state}>
      <button type="button" className="sort-button" onClick={() => onSort(column)}>
        {label}
        <span className="sort-arrow" aria-hidden="true">
          {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
