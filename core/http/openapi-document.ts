/** Builds the OpenAPI 3.1 document from the registered routes: their schemas, plus every status each route can answer. */
import { defaultPageSize, maxPageSize } from './paging.ts';
import { policyKey, routePolicies, type RoutePolicies } from './route-policy.ts';
import { SchemaComponents } from './openapi-schema.ts';
import { ErrorBody } from './schemas/common.ts';

type Json = Record<string, unknown>;

/** What the builder reads of an Elysia route (`app.routes`). */
export interface DocumentedRoute {
  method: string;
  path: string;
  hooks?: {
    body?: unknown;
    query?: unknown;
    params?: unknown;
    response?: unknown;
    detail?: { hide?: boolean; tags?: string[]; summary?: string; description?: string; responses?: Record<string, Json>; requestBody?: Json };
  };
}

export interface DocumentOptions {
  version: string;
  maxBodyBytes: number;
  /** Which routes take a bearer token: core's policies and plugins' (routePolicies when not given). */
  policies?: RoutePolicies;
}

/** Error answers shared by every operation, as components.responses. */
const errorAnswers: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'bad_request: malformed JSON, a wrong type, an unknown or invalid field (the message names it)' },
  401: { name: 'Unauthorized', description: 'unauthorized or token_expired: no bearer token, or one that is invalid, revoked or expired' },
  403: {
    name: 'Forbidden',
    description:
      'forbidden, insufficient_scope, workspace_suspended, plan_no_api_access or plan_limit_*: the role, token scopes or plan do not allow this',
  },
  404: { name: 'NotFound', description: 'not_found: no such resource in this workspace (ids of other workspaces too), or an X-Workspace-Id the caller does not belong to' },
  409: { name: 'Conflict', description: 'conflict or last_owner: the change conflicts with the current state' },
  413: { name: 'PayloadTooLarge', description: 'payload_too_large: the request body is over the limit (MAX_BODY_BYTES)' },
  415: { name: 'UnsupportedMediaType', description: 'unsupported_media_type: a request body that is not application/json' },
  426: { name: 'UpgradeRequired', description: 'upgrade_required: a WebSocket endpoint answered a plain GET' },
  429: {
    name: 'TooManyRequests',
    description:
      'too_many_pending_tasks: the workspace has as many pending tasks as its plan allows; too_many_failed_lookups: this address sent too many unknown or revoked API tokens in the last minute; ai_budget_exhausted: the workspace used its AI tool calls of this month (Retry-After says when to try again)',
  },
  502: { name: 'BadGateway', description: 'bad_gateway: a remote server the service called for this request (a remote MCP server) failed or did not answer in time; the message says why' },
};

const pageHeaders = {
  Link: {
    description: 'present when more rows remain: `<next page URL>; rel="next"`',
    schema: { type: 'string' },
  },
  'X-Next-Cursor': { description: 'present when more rows remain: the cursor of the next page', schema: { type: 'string' } },
};

/** Optional on every authenticated operation; empty is the same as absent. */
export const workspaceHeader = {
  name: 'X-Workspace-Id',
  in: 'header',
  required: false,
  description: "act in this workspace of the caller's (default: their oldest; an API token acts only in its own); any other value answers 404",
  schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'string', maxLength: 0 }] },
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `By-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

const isPageQuery = (query: unknown) => {
  const properties = (query as { properties?: Record<string, unknown> } | undefined)?.properties;
  return !!properties && 'limit' in properties && 'cursor' in properties;
};

const isVoid = (schema: unknown) => {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return type === 'void' || type === 'undefined' || type === 'null';
};

export function buildOpenApiDocument(routes: readonly DocumentedRoute[], options: DocumentOptions, extraPaths: Record<string, Json> = {}) {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, Json>> = {};

  for (const route of routes) {
    const hooks = route.hooks ?? {};
    const inDocument = route.path.startsWith('/api/v1/') || route.path === '/healthz';
    if (!inDocument || route.method === 'WS' || hooks.detail?.hide) continue;
    const method = route.method.toLowerCase();
    const authenticated = Boolean((options.policies ?? routePolicies)[policyKey(route.method, route.path)]);
    const paged = isPageQuery(hooks.query);
    const hasBody = Boolean(hooks.body) || Boolean(hooks.detail?.requestBody);
    const operation: Json = {
      operationId: operationId(route.method, route.path),
      tags: hooks.detail?.tags,
      summary: hooks.detail?.summary,
      description: hooks.detail?.description,
      security: authenticated ? [{ bearerAuth: [] }] : [],
      parameters: parametersOf(route, hooks, components, authenticated, paged),
    };
    // A body that is not JSON (the Prometheus API's forms, the OTLP receiver's protobuf or JSON) is described by its route.
    if (hooks.detail?.requestBody) operation.requestBody = hooks.detail.requestBody;
    else if (hooks.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: components.convert(hooks.body) } } };
    }
    operation.responses = responsesOf(route, hooks, components, { authenticated, paged, hasBody });
    (paths[openApiPath(route.path)] ??= {})[method] = JSON.parse(JSON.stringify(operation)) as Json;
  }
  for (const [path, operations] of Object.entries(extraPaths)) paths[path] = { ...paths[path], ...(operations as Record<string, Json>) };
  addLinks(paths, components.schemas);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Loadplane API',
      version: options.version,
      description: [
        'Self-hosted, multi-tenant load-testing control plane.',
        'Authenticate with a bearer JWT from the identity provider or a personal API token (psk_...).',
        'Every error answers {error, message}. Request bodies are JSON (Content-Type: application/json), at most',
        `${options.maxBodyBytes} bytes, and their strings never hold U+0000 (400). Lists page with ?limit= (default ${defaultPageSize}, at most ${maxPageSize}) and ?cursor=;`,
        'a page also stops early once its JSON passes a byte budget, and then carries Link and X-Next-Cursor like any page with more rows after it.',
        'A method a path does not declare answers 405 with Allow.',
      ].join(' '),
    },
    paths,
    components: {
      schemas: {
        ...components.schemas,
        Error: {
          title: 'Error',
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', description: 'machine-readable code, e.g. not_found' },
            message: { type: 'string', description: 'human-readable explanation' },
          },
        },
      },
      responses: Object.fromEntries(
        Object.values(errorAnswers).map(({ name, description }) => [
          name,
          { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or psk_ API token' } },
    },
  };
}

function parametersOf(route: DocumentedRoute, hooks: NonNullable<DocumentedRoute['hooks']>, components: SchemaComponents, authenticated: boolean, paged: boolean) {
  const parameters: Json[] = [];
  const params = (components.convert(hooks.params).properties ?? {}) as Record<string, Json>;
  for (const match of route.path.matchAll(/:(\w+)/g)) {
    const name = match[1]!;
    const schema = params[name] ?? { type: 'string' };
    parameters.push({ name, in: 'path', required: true, description: schema.description, schema: { ...schema, description: undefined } });
  }
  if (paged) {
    // The service takes `?limit=` empty as the default, so the document allows it.
    parameters.push(
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `page size, 1 to ${maxPageSize} (default ${defaultPageSize}); empty means the default`,
        schema: { anyOf: [{ type: 'integer', minimum: 1, maximum: maxPageSize }, { type: 'string', maxLength: 0 }] },
      },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description: 'X-Next-Cursor of the previous page (opaque; any other value answers 400); empty means the first page',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]*$' },
      },
    );
  }
  if (hooks.query) {
    const query = components.convert(hooks.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      // A paged route's limit and cursor are documented above; its other parameters (filters) follow.
      if (paged && (name === 'limit' || name === 'cursor')) continue;
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, description: schema.description, schema: { ...schema, description: undefined } });
    }
  }
  if (authenticated) parameters.push(workspaceHeader);
  return parameters;
}

function responsesOf(
  route: DocumentedRoute,
  hooks: NonNullable<DocumentedRoute['hooks']>,
  components: SchemaComponents,
  traits: { authenticated: boolean; paged: boolean; hasBody: boolean },
) {
  const responses: Record<string, Json> = {};
  const declared = (hooks.response && typeof hooks.response === 'object' && !('type' in hooks.response) ? hooks.response : { 200: hooks.response }) as Record<
    string,
    unknown
  >;
  const errors = new Set<number>();
  for (const [status, schema] of Object.entries(declared)) {
    const code = Number(status);
    // An error answer in the standard {error, message} body is the shared response; a route that answers an error in
    // another shape (the Prometheus API's envelope) is described with its own schema.
    if (code >= 400 && (schema === undefined || schema === ErrorBody)) errors.add(code);
    else if (code >= 400) responses[status] = { description: errorAnswers[code]?.description ?? 'error', content: { 'application/json': { schema: components.convert(schema) } } };
    else if (schema !== undefined) {
      responses[status] = isVoid(schema)
        ? { description: 'done; no content' }
        : {
            description: code === 201 ? 'created' : code === 202 ? 'accepted' : 'OK',
            ...(traits.paged && code === 200 ? { headers: pageHeaders } : {}),
            content: { 'application/json': { schema: components.convert(schema) } },
          };
    }
  }
  for (const [status, response] of Object.entries(hooks.detail?.responses ?? {})) responses[status] = response;
  const writes = route.method !== 'GET' && route.method !== 'HEAD';
  // Every request: the body limit is checked on the declared length before routing.
  errors.add(413);
  // 429: an address that sent many unknown API tokens is refused before any lookup, on every authenticated route.
  if (traits.authenticated) [401, 403, 404, 429].forEach((code) => errors.add(code));
  // Any body on a write is parsed (malformed JSON is a 400, another media type a 415), whether or not the route takes one.
  if (writes || traits.hasBody) [400, 415].forEach((code) => errors.add(code));
  if (traits.paged) errors.add(400);
  for (const code of [...errors].sort()) {
    if (responses[String(code)]) continue;
    const answer = errorAnswers[code];
    if (!answer) throw new Error(`no description for status ${code} (${route.method} ${route.path})`);
    responses[String(code)] = { $ref: `#/components/responses/${answer.name}` };
  }
  return responses;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * OpenAPI links from each create (POST on a collection) to the operations on one of its items: the item's id comes
 * from the created resource (`id`, or `user_id` for `{userId}`). Clients and stateful fuzzers follow them.
 */
function addLinks(paths: Record<string, Record<string, Json>>, schemas: Record<string, Json>) {
  const propertiesOf = (schema: Json | undefined): Record<string, unknown> => {
    const ref = typeof schema?.$ref === 'string' ? schemas[schema.$ref.split('/').pop()!] : schema;
    return (ref?.properties ?? {}) as Record<string, unknown>;
  };
  for (const [path, operations] of Object.entries(paths)) {
    const match = /^(.*)\/\{(\w+)\}(\/.*)?$/.exec(path);
    if (!match) continue;
    const [, collection, param] = match as unknown as [string, string, string];
    const create = paths[collection!]?.post;
    if (!create) continue;
    for (const [status, response] of Object.entries(create.responses as Record<string, Json>)) {
      if (!/^2/.test(status)) continue;
      const schema = (response.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
      const properties = propertiesOf(schema);
      const property = [param, snakeCase(param)].find((name) => name in properties);
      if (!property) continue;
      const links = (response.links ??= {}) as Record<string, Json>;
      for (const operation of Object.values(operations)) {
        const id = operation.operationId as string;
        links[id] = { operationId: id, parameters: { [param]: `$response.body#/${property}` } };
      }
    }
  }
}
