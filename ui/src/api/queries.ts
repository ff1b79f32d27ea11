/**
 * Query options shared by several pages (for useQuery): testsQuery (the list; there is no GET /tests/{id}), machinesQuery, taskQuery(id), configsQuery.
 * Keys: ['tests'], ['machines'], ['tasks', id], ['configs'].
 */
import { api, unwrap } from './client';

export const testsQuery = {
  queryKey: ['tests'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tests', { params: { query: { limit: 1000 } } })),
};

export const machinesQuery = {
  queryKey: ['machines'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/machines', { params: { query: { limit: 1000 } } })),
};

export const taskQuery = (id: string) => ({
  queryKey: ['tasks', id] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}', { params: { path: { id } } })),
});

export const configsQuery = {
  queryKey: ['configs'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/configs', { params: { query: { limit: 1000 } } })),
};

/** Whether a task status is not final yet. */
export function isLiveStatus(status: string | undefined): boolean {
  return status === 'pending' || status === 'running';
}
