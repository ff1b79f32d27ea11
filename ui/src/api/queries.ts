/**
 * Query options shared by several pages (for useQuery): testsQuery (the list), testQuery(id), machinesQuery,
 * taskQuery(id), taskEndpointsQuery(id, live), taskErrorsQuery(id, live), configsQuery; isLiveStatus(status).
 * Keys: ['tests'], ['tests', id], ['machines'], ['tasks', id], ['tasks', id, 'endpoints' | 'errors', live], ['configs'].
 */
import { api, unwrap } from './client';

export const testsQuery = {
  queryKey: ['tests'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tests', { params: { query: { limit: 1000 } } })),
};

/** One test (GET /tests/{id}); a 404 means it was deleted or belongs to another workspace. */
export const testQuery = (id: string) => ({
  queryKey: ['tests', id] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tests/{id}', { params: { path: { id } } })),
});

export const machinesQuery = {
  queryKey: ['machines'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/machines', { params: { query: { limit: 1000 } } })),
};

export const taskQuery = (id: string) => ({
  queryKey: ['tasks', id] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}', { params: { path: { id } } })),
});

/** A run's figures per endpoint; `live` is part of the key so that the end of a run fetches the final figures. */
export const taskEndpointsQuery = (id: string, live = false) => ({
  queryKey: ['tasks', id, 'endpoints', live] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/endpoints', { params: { path: { id } } })),
});

/** A run's errors grouped by endpoint, kind and code, most frequent first. */
export const taskErrorsQuery = (id: string, live = false) => ({
  queryKey: ['tasks', id, 'errors', live] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/errors', { params: { path: { id } } })),
});

export const configsQuery = {
  queryKey: ['configs'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/configs', { params: { query: { limit: 1000 } } })),
};

/** Whether a task status is not final yet. */
export function isLiveStatus(status: string | undefined): boolean {
  return status === 'pending' || status === 'running';
}
