/** The runs list's filters (test, status, machine), read from and written to the URL query. */
import type { Task } from '../../api/types';

export interface RunFilters {
  test: string;
  status: string;
  machine: string;
}

export const runStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

export function readFilters(params: URLSearchParams): RunFilters {
  return { test: params.get('test') ?? '', status: params.get('status') ?? '', machine: params.get('machine') ?? '' };
}

export function hasFilters(filters: RunFilters): boolean {
  return Boolean(filters.test || filters.status || filters.machine);
}

export function matches(task: Task, filters: RunFilters): boolean {
  if (filters.test && task.test_id !== filters.test) return false;
  if (filters.status && task.status !== filters.status) return false;
  if (filters.machine && !task.machine_ids.includes(filters.machine)) return false;
  return true;
}
