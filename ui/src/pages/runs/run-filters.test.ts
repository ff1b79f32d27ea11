/** The runs list's filters from the URL query, and the GET /tasks parameters they become. */
import { describe, expect, test } from 'bun:test';
import { filterQuery, hasFilters, readFilters } from './run-filters';

describe('run filters', () => {
  test('read from the query', () => {
    const filters = readFilters(new URLSearchParams('test=t1&machine=m2'));
    expect(filters).toEqual({ test: 't1', status: '', machine: 'm2' });
    expect(hasFilters(filters)).toBe(true);
    expect(hasFilters(readFilters(new URLSearchParams('')))).toBe(false);
    // An unknown status is ignored rather than sent (the API would answer 400).
    expect(readFilters(new URLSearchParams('status=weird')).status).toBe('');
    expect(readFilters(new URLSearchParams('status=failed')).status).toBe('failed');
  });
  test('sent as test_id, status and machine_id, only when set', () => {
    expect(filterQuery(readFilters(new URLSearchParams('test=t1&status=running&machine=m2')))).toEqual({ test_id: 't1', status: 'running', machine_id: 'm2' });
    expect(filterQuery(readFilters(new URLSearchParams('')))).toEqual({});
  });
});
