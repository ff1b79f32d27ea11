/**
 * The typed API client and helpers around it.
 *
 * Exports:
 * - `api`: openapi-fetch client over `paths` (paths like "/api/v1/tasks/{id}"), sending the bearer token and X-Workspace-Id.
 * - `authorizedFetch(path, init?)`: plain fetch with the same headers (for streams and endpoints not yet in the schema).
 * - `ApiError` (status, code, message) and `isClientError(error)`, re-exported from ./api-error.
 * - `unwrap(call)`: resolves to `data`, or throws ApiError built from the `{error, message}` body.
 * - `unwrapPage(call)`: like unwrap for lists: `{ items, nextCursor }` (from X-Next-Cursor).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError } from './api-error';
import { getAccessToken, getWorkspaceId, notifyUnauthorized } from './credentials';

export { ApiError, isClientError } from './api-error';

function addCredentials(headers: Headers): void {
  const token = getAccessToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  const workspaceId = getWorkspaceId();
  if (workspaceId && !headers.has('X-Workspace-Id')) headers.set('X-Workspace-Id', workspaceId);
}

const credentialsMiddleware: Middleware = {
  onRequest({ request }) {
    addCredentials(request.headers);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) notifyUnauthorized();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '' });
api.use(credentialsMiddleware);

/** fetch() of a path of this origin (e.g. "/api/v1/tasks/x/log-stream") with the bearer token and X-Workspace-Id. */
export async function authorizedFetch(path: string, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  addCredentials(headers);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The service cannot be reached. Check your connection and try again.');
  }
  if (response.status === 401) notifyUnauthorized();
  return response;
}

type Call<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

async function settle<T>(call: Call<T>): Promise<{ data?: T; error?: unknown; response: Response }> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The service cannot be reached. Check your connection and try again.');
  }
}

/** The answer's data, or an ApiError carrying the API's message. */
export async function unwrap<T>(call: Call<T>): Promise<T> {
  const { data, error, response } = await settle(call);
  if (!response.ok || error !== undefined) throw ApiError.fromBody(response.status, error);
  return data as T;
}

/** One page of a list: its rows and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export async function unwrapPage<T>(call: Call<T[]>): Promise<Page<T>> {
  const { data, error, response } = await settle(call);
  if (!response.ok || error !== undefined) throw ApiError.fromBody(response.status, error);
  return { items: data ?? [], nextCursor: response.headers.get('X-Next-Cursor') || null };
}
