/**
 * The one client every MCP tool calls: Loadplane's own REST API (/api/v1) with the caller's bearer token, in process
 * for the HTTP endpoint and over the network for stdio. Scopes, roles, tenancy, paging and the audit log are REST's
 * own; an error answer `{error, message}` becomes a RestError carrying both.
 */

export type Fetch = (request: Request) => Promise<Response>;

/** A REST answer other than 2xx (or no answer at all: status 0), with the API's code and message. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export interface ServiceAddress {
  /** The site address ({site_url}): the origin, and a path prefix when a proxy puts the service under one. */
  siteUrl: string;
  /** {base_url}: the site address with /api/v1. */
  apiUrl: string;
}

/** SERVICE_API_URL may name the site or its API: `https://lp.example.com` and `https://lp.example.com/api/v1` alike. */
export function serviceAddress(raw: string): ServiceAddress {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the service address must be an http or https URL, got "${raw}"`);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const siteUrl = `${url.origin}${path}`;
  return { siteUrl, apiUrl: `${siteUrl}/api/v1` };
}

export interface Page<T> {
  items: T[];
  /** The next page's cursor (REST's X-Next-Cursor), or null on the last page. */
  next_cursor: string | null;
}

export interface RestClient {
  readonly address: ServiceAddress;
  get<T>(path: string, query?: Query): Promise<T>;
  /** A list page: `?limit=&cursor=` passed on, the next cursor from X-Next-Cursor. */
  page<T>(path: string, paging: { limit?: number; cursor?: string | null }, query?: Query): Promise<Page<T>>;
  /** Any paged answer (an object holding a page, as GET /tasks/{id}/otel answers), with the next cursor. */
  paged<T>(path: string, paging: { limit?: number; cursor?: string | null }, query?: Query): Promise<{ body: T; next_cursor: string | null }>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** A streaming answer (SSE), checked for errors and not read: no timeout but the caller's signal. */
  stream(path: string, query?: Query, signal?: AbortSignal): Promise<Response>;
}

export type Query = Record<string, string | number | readonly string[] | undefined | null>;

export interface RestClientOptions {
  address: ServiceAddress;
  token: string;
  fetch: Fetch;
  /** Headers passed on with every call (X-Workspace-Id of a JWT caller). */
  headers?: Record<string, string>;
  /** Aborts every call (the MCP request went away). */
  signal?: AbortSignal;
  /** Per call, streams excepted; a network service may hang, the in-process one does not. */
  timeoutMs?: number;
}

/** How much of a non-JSON error body a message quotes. */
const quotedBodyChars = 300;

async function errorOf(response: Response): Promise<RestError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') {
      return new RestError(response.status, body.error, typeof body.message === 'string' ? body.message : body.error);
    }
  } catch {
    // Not our JSON error body (a proxy's page, say): quoted below.
  }
  const code = response.status === 401 ? 'unauthorized' : response.status === 404 ? 'not_found' : `http_${response.status}`;
  return new RestError(response.status, code, `HTTP ${response.status}${text ? `: ${text.slice(0, quotedBodyChars)}` : ''}`);
}

export function createRestClient(options: RestClientOptions): RestClient {
  const { address, token, signal } = options;

  function urlOf(path: string, query?: Query): string {
    const url = new URL(`${address.apiUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const each of value) url.searchParams.append(name, each);
      else url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async function call(method: string, url: string, body: unknown, timed: boolean, callSignal?: AbortSignal): Promise<Response> {
    const headers = new Headers(options.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('accept', timed ? 'application/json' : 'text/event-stream');
    if (body !== undefined) headers.set('content-type', 'application/json');
    const signals = [signal, callSignal, timed && options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
      (each): each is AbortSignal => each !== undefined,
    );
    const request = new Request(url, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signals.length ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
    });
    let response: Response;
    try {
      response = await options.fetch(request);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new RestError(0, 'service_unreachable', `no answer from ${address.apiUrl}: ${reason}`);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async function json<T>(response: Response): Promise<T> {
    if (response.status === 204) return null as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }

  async function paged<T>(path: string, paging: { limit?: number; cursor?: string | null }, query?: Query) {
    const response = await call('GET', urlOf(path, { ...query, limit: paging.limit, cursor: paging.cursor || undefined }), undefined, true);
    return { body: await json<T>(response), next_cursor: response.headers.get('x-next-cursor') || null };
  }

  return {
    address,
    async get(path, query) {
      return json(await call('GET', urlOf(path, query), undefined, true));
    },
    paged,
    async page<T>(path: string, paging: { limit?: number; cursor?: string | null }, query?: Query): Promise<Page<T>> {
      const { body, next_cursor } = await paged<T[]>(path, paging, query);
      return { items: body, next_cursor };
    },
    async send(method, path, body) {
      return json(await call(method, urlOf(path), body, true));
    },
    stream(path, query, streamSignal) {
      return call('GET', urlOf(path, query), undefined, false, streamSignal);
    },
  };
}
