/**
 * Query options shared by several pages (for useQuery): testsQuery (the list), testQuery(id), machinesQuery,
 * taskQuery(id), taskErrorsQuery(id, live), configsQuery, taskCompareQuery(id, withRun, live),
 * testTrendQuery(id, limit), schedulesQuery (every page); isLiveStatus(status).
 * Keys: ['tests'], ['tests', id], ['machines'], ['tasks', id], ['tasks', id, 'errors', live], ['configs'],
 * ['tasks', id, 'compare', with, live], ['tests', id, 'trend', limit], ['schedules']. A run's endpoints with their
 * minutes: pages/runs/endpoints-query.ts.
 */
import { api, unwrap, unwrapPage } from './client';
import type { Schedule } from './types';

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

/** A run's errors grouped by endpoint, kind and code, most frequent first. */
export const taskErrorsQuery = (id: string, live = false) => ({
  queryKey: ['tasks', id, 'errors', live] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/errors', { params: { path: { id } } })),
});

export const configsQuery = {
  queryKey: ['configs'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/configs', { params: { query: { limit: 1000 } } })),
};

/** A run next to another (`withRun`: its UUID or public id, or `baseline`); a 404 for `baseline` means the test has none. */
export const taskCompareQuery = (id: string, withRun: string, live = false) => ({
  queryKey: ['tasks', id, 'compare', withRun, live] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/compare', { params: { path: { id }, query: { with: withRun } } })),
});

/** The test's last `limit` finished runs, oldest first (GET /tests/{id}/trend). */
export const testTrendQuery = (id: string, limit = 20) => ({
  queryKey: ['tests', id, 'trend', limit] as const,
  queryFn: () => unwrap(api.GET('/api/v1/tests/{id}/trend', { params: { path: { id }, query: { limit } } })),
});

/** Every schedule of the workspace (GET /schedules is paged: follows X-Next-Cursor), newest first. */
export const schedulesQuery = {
  queryKey: ['schedules'] as const,
  queryFn: async () => {
    const all: Schedule[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const query: { limit: number; cursor?: string } = cursor ? { limit: 1000, cursor } : { limit: 1000 };
      const got: { items: Schedule[]; nextCursor: string | null } = await unwrapPage(api.GET('/api/v1/schedules', { params: { query } }));
      all.push(...got.items);
      cursor = got.nextCursor;
      if (!cursor) break;
    }
    return all;
  },
};

/** Whether a task status is not final yet. */
export function isLiveStatus(status: string | undefined): boolean {
  return status === 'pending' || status === 'running';
}
