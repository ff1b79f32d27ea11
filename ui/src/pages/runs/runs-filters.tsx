/** RunsFilters: selects for test, status and machine, kept in the URL query (?test=&status=&machine=). */
import { useId } from 'react';
import type { Machine, Test } from '../../api/types';
import { runStatuses, type RunFilters } from './run-filters';

export function RunsFilters(props: {
  filters: RunFilters;
  tests: Test[];
  machines: Machine[];
  onChange(name: keyof RunFilters, value: string): void;
  onClear(): void;
}) {
  const { filters, tests, machines, onChange, onClear } = props;
  const id = useId();
  const active = Boolean(filters.test || filters.status || filters.machine);
  return (
    <form className="filters" role="search" aria-label="Filter runs" onSubmit={(event) => event.preventDefault()}>
      <div>
        <label htmlFor={`${id}-test`}>Test</label>
        <select id={`${id}-test`} value={filters.test} onChange={(event) => onChange('test', event.target.value)}>
          <option value="">All tests</option>
          {tests.map((test) => (
            <option key={test.id} value={test.id}>
              {test.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={filters.status} onChange={(event) => onChange('status', event.target.value)}>
          <option value="">Any status</option>
          {runStatuses.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-machine`}>Machine</label>
        <select id={`${id}-machine`} value={filters.machine} onChange={(event) => onChange('machine', event.target.value)}>
          <option value="">Any machine</option>
          {machines.map((machine) => (
            <option key={machine.id} value={machine.id}>
              {machine.name}
            </option>
          ))}
        </select>
      </div>
      {active ? (
        <button type="button" className="button" onClick={onClear}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
