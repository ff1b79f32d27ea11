/** runEndpointsQuery(id, live): a run's figures per endpoint with each one's minutes (GET /tasks/{id}/endpoints?timeline=true), for useQuery. */
import { api, unwrap } from '../../api/client';
import { withTimelines } from './endpoint-timeline';

/** `live` is part of the key so that the end of a run fetches the final figures. */
export const runEndpointsQuery = (id: string, live = false) => ({
  queryKey: ['tasks', id, 'endpoints', 'timeline', live] as const,
  // The rows are read tolerantly: a service that does not know `timeline` yet ignores it and sends no minutes.
  queryFn: async () => withTimelines(await unwrap(api.GET('/api/v1/tasks/{id}/endpoints', { params: { path: { id }, query: { timeline: 'true' } } }))),
});
