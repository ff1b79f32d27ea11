/** The runs list's filters from the URL query. */
import { describe, expect, test } from 'bun:test';
import { hasFilters, matches, readFilters } from './run-filters';
import type { Task } from '../../api/types';

const task = { test_id: 't1', status: 'failed', machine_ids: ['m1', 'm2'] } as unknown as Task;

describe('run filters', () => {
  test('read from the query and matched', () => {
    const filters = readFilters(new URLSearchParams('test=t1&machine=m2'));
    expect(hasFilters(filters)).toBe(true);
    expect(matches(task, filters)).toBe(true);
    expect(matches(task, { ...filters, status: 'completed' })).toBe(false);
    expect(matches(task, readFilters(new URLSearchParams('')))).toBe(true);
    expect(matches(task, readFilters(new URLSearchParams('machine=m3')))).toBe(false);
  });
});
