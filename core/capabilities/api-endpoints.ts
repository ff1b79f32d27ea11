/**
 * The api-endpoints capability: a plugin's REST resources under /api/v1 as plain data and web-standard handlers, the
 * form a plugin built against the published kit uses (it carries no web framework of its own). The host serves them
 * like core's routes: the same body reader and limits, bearer authentication and X-Workspace-Id, the declared access
 * policy of each (fail closed), `{error, message}` errors, and a place in the OpenAPI document.
 */
import type { TSchema } from '@sinclair/typebox';
import { defineCapability } from '../kernel/define-capability.ts';
import type { Permission } from '../domain/permissions.ts';
import type { Scope } from '../domain/scopes.ts';
import type { Caller } from '../services/caller.ts';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a caller needs for an endpoint: the API token's scope and the role's permission (as core's route policies). */
export interface EndpointPolicy {
  /** A scope, all of a list, one of `anyOf`, `any` (every token), or `null`: scoped tokens are refused. */
  scope: Scope | readonly Scope[] | { anyOf: readonly Scope[] } | 'any' | null;
  /** The permission the caller's role must hold in the workspace; absent: any member may. */
  permission?: Permission;
  /** Only the workspace's owners. */
  ownerOnly?: boolean;
}

/** One request to a plugin endpoint, authenticated and validated before the handler runs. */
export interface ApiEndpointRequest {
  /** Who asks, in which workspace, with which role, permissions and token: scope every read and write by it. */
  caller: Caller;
  /** The path's `:name` parameters. */
  params: Record<string, string>;
  /** The query string, validated by `query` when the endpoint declares it. */
  query: Record<string, unknown>;
  /** The JSON body, validated by `body` when the endpoint declares it; undefined without one. */
  body: unknown;
  /** The client's address (behind TRUSTED_PROXIES, the forwarded one). */
  clientAddress: string | null;
  /** The request itself (headers); its body has been read. */
  request: Request;
}

export interface ApiEndpoint {
  method: ApiMethod;
  /** Relative to /api/v1, with `:name` parameters: `/hey/runs/:id`. */
  path: string;
  policy: EndpointPolicy;
  /** One line for the OpenAPI document. */
  summary: string;
  description?: string;
  /** TypeBox schemas; a request that fails `body` or `query` gets 400 before the handler runs. */
  body?: TSchema;
  query?: TSchema;
  /** The success answer's schema, for the document. */
  response?: TSchema;
  /** The success status: 200 by default (201 for a creation, 204 for an answer without a body). */
  status?: 200 | 201 | 202 | 204;
  /**
   * Answers with a JSON value, or a `Response` of its own. Throw the kit's `badRequest`/`notFound`/`conflict`/
   * `forbidden` for an error answer; anything else thrown is a 500 without details.
   */
  handle(request: ApiEndpointRequest): unknown | Promise<unknown>;
}

export interface ApiEndpoints {
  /** Unique among plugins (the plugin's name will do); boot errors name it. */
  name: string;
  /** OpenAPI tag of the endpoints (default: the name). */
  tag?: string;
  endpoints: readonly ApiEndpoint[];
}

export const apiEndpointsCapability = defineCapability<ApiEndpoints>({
  id: 'core.apiEndpoints',
  cardinality: 'many',
  key: (entry) => entry.name,
});
