/**
 * A plugin's endpoints (the api-endpoints capability: data and web-standard handlers) made into API routes the host
 * serves like its own: each endpoint's policy declared under its key, its schemas validated and documented, its answer
 * a JSON value or a Response, and its mistakes (a bad path, a duplicate) a boot error naming the plugin.
 */
import { Type } from '@sinclair/typebox';
import { Elysia, type AnyElysia } from 'elysia';
import type { ApiEndpoint, ApiEndpoints, ApiMethod } from '../capabilities/api-endpoints.ts';
import type { ApiRoutes } from '../capabilities/api-routes.ts';
import { KernelBootError } from '../kernel/errors.ts';
import type { Caller } from '../services/caller.ts';
import { clientAddressOf } from './client-address.ts';
import { policyKey } from './route-policy.ts';
import { bearerSecurity, errorResponses } from './schemas/common.ts';

/** What the host's request context holds by the time a handler runs (requireCaller put the caller there). */
interface HandlerContext {
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  request: Request;
  set: { status?: number | string };
}

const methods: readonly ApiMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const pathShape = /^(\/(:?[A-Za-z0-9._~-]+))+$/;

function checked(entry: ApiEndpoints): readonly ApiEndpoint[] {
  const seen = new Set<string>();
  for (const endpoint of entry.endpoints) {
    const where = `plugin ${entry.name}: endpoint ${String(endpoint.method)} ${String(endpoint.path)}`;
    if (!methods.includes(endpoint.method)) throw new KernelBootError(`${where}: the method must be one of ${methods.join(', ')}`);
    // Segments of dots would name another place once a client or proxy normalises the URL.
    if (typeof endpoint.path !== 'string' || !pathShape.test(endpoint.path) || endpoint.path.split('/').some((segment) => /^\.+$/.test(segment))) {
      throw new KernelBootError(`${where}: the path must be relative to /api/v1, like /things/:id`);
    }
    if (typeof endpoint.handle !== 'function') throw new KernelBootError(`${where} has no handle function`);
    if (!endpoint.policy || endpoint.policy.scope === undefined) throw new KernelBootError(`${where} declares no access policy`);
    const key = policyKey(endpoint.method, `/api/v1${endpoint.path}`);
    if (seen.has(key)) throw new KernelBootError(`${where} is declared twice`);
    seen.add(key);
  }
  return entry.endpoints;
}

/** Only the error statuses a request to this endpoint can meet, for the document. */
function responses(endpoint: ApiEndpoint) {
  const success = endpoint.status ?? 200;
  return {
    [success]: success === 204 ? Type.Void() : (endpoint.response ?? Type.Unknown({ description: 'JSON' })),
    ...(endpoint.body || endpoint.query ? { 400: errorResponses[400] } : {}),
    401: errorResponses[401],
    403: errorResponses[403],
    ...(endpoint.path.includes('/:') ? { 404: errorResponses[404] } : {}),
  };
}

export function endpointRoutes(entry: ApiEndpoints): ApiRoutes {
  const endpoints = checked(entry);
  return {
    name: entry.name,
    policies: Object.fromEntries(endpoints.map((endpoint) => [policyKey(endpoint.method, `/api/v1${endpoint.path}`), endpoint.policy])),
    routes(kit): AnyElysia {
      let group: AnyElysia = new Elysia({ normalize: false, detail: { tags: [entry.tag ?? entry.name], security: bearerSecurity } }).use(kit.requireCaller());
      for (const endpoint of endpoints) {
        group = group.route(
          endpoint.method,
          endpoint.path,
          async (context: Record<string, unknown>) => {
            const { caller, params, query, body, request, set } = context as unknown as HandlerContext;
            const answer = await endpoint.handle({ caller, params: { ...params }, query: { ...query }, body: body ?? undefined, clientAddress: clientAddressOf(request), request });
            if (answer instanceof Response) return answer;
            set.status = endpoint.status ?? 200;
            return endpoint.status === 204 ? undefined : answer;
          },
          {
            ...(endpoint.body ? { body: endpoint.body } : {}),
            ...(endpoint.query ? { query: endpoint.query } : {}),
            response: responses(endpoint),
            detail: { summary: endpoint.summary, ...(endpoint.description ? { description: endpoint.description } : {}) },
          } as never,
        ) as AnyElysia;
      }
      return group;
    },
  };
}
