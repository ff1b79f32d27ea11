/** The HTTP application: error mapping, body limits, health, API docs, plugin routes and the /api/v1 resources. */
import { Elysia, t, ValidationError } from 'elysia';
import type { ApiRoutes } from '../capabilities/api-routes.ts';
import type { HttpRoutes } from '../capabilities/http-routes.ts';
import { DomainError } from '../kernel/errors.ts';
import type { Logger } from '../kernel/logger.ts';
import type { StaticAssets } from '../ports/static-assets.ts';
import { apiDocs } from './api-docs.ts';
import { noteClientAddress } from './client-address.ts';
import { errorResponse, isDomainError } from './error-mapper.ts';
import { hasBody, isChunked, isJsonType, lengthRequired, notJson, readBodyText, readJsonBody, tooLarge } from './read-body.ts';
import type { Authenticate } from './authenticate.ts';
import type { DocumentedRoute } from './openapi-document.ts';
import { createRouteMethods, type PathMethods } from './route-methods.ts';
import { buildPluginApiRoutes } from './plugin-api-routes.ts';
import { enforcePolicy, type RoutePolicies } from './route-policy.ts';
import { requireCaller } from './require-caller.ts';
import type { RouteDeps } from './route-deps.ts';
import { agentRoutes } from './routes/agent.ts';
import { apiTokenRoutes } from './routes/api-tokens.ts';
import { authRoutes } from './routes/auth.ts';
import { configRoutes } from './routes/configs.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { dashboardRoutes } from './routes/dashboards.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { envVarRoutes } from './routes/env-vars.ts';
import { gitRepoRoutes } from './routes/git-repos.ts';
import { mcpServerRoutes } from './routes/mcp-servers.ts';
import { mcpServerToolRoutes } from './routes/mcp-server-tools.ts';
import { otlpMetricsPath, otlpRoutes } from './routes/otlp.ts';
import { taskOtelRoutes } from './routes/task-otel.ts';
import { taskCompareRoutes } from './routes/task-compare.ts';
import { taskEndpointRoutes } from './routes/task-endpoints.ts';
import { taskTimeseriesRoutes } from './routes/task-timeseries.ts';
import { machineRoutes } from './routes/machines.ts';
import { metricRoutes } from './routes/metrics.ts';
import { prometheusRoutes } from './routes/prometheus.ts';
import { taskRoutes } from './routes/tasks.ts';
import { testRoutes } from './routes/tests.ts';
import { workspaceRoutes } from './routes/workspace.ts';
import { usageRoutes } from './routes/usage.ts';
import { describeValidationError } from './validation-message.ts';
import { serviceMetricsRoute } from './service-metrics-route.ts';
import type { ServiceHealth } from '../services/metrics/service-health.ts';
import type { Cidr } from '../domain/ip-address.ts';

export interface AppOptions extends RouteDeps {
  logger: Logger;
  maxBodyBytes: number;
  version: string;
  pluginRoutes: readonly HttpRoutes[];
  /** Plugins' REST resources, mounted under /api/v1 like core's. */
  pluginApiRoutes: readonly ApiRoutes[];
  /** Every /api/v1 route's access policy: core's and plugins' (mergeRoutePolicies). */
  routePolicies: RoutePolicies;
  assets: StaticAssets | null;
  /** Reverse proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES), for per-address limits. */
  trustedProxies?: readonly Cidr[];
  /** The service's own metrics (GET /metrics) and the bearer token every caller needs for them, loopback included. */
  serviceHealth: ServiceHealth;
  metricsToken: string;
}

export function createApp(options: AppOptions) {
  const { logger, maxBodyBytes, trustedProxies = [] } = options;

  // The app's own route list, read lazily: every route is registered before the first request arrives.
  let registered: () => readonly DocumentedRoute[] = () => [];
  const methodsOf = createRouteMethods(() => registered());
  /** The answer to an error of any route: our own verdicts as they are, validation as 400, a bug as 500 (logged). */
  async function answerError(code: unknown, error: unknown, request: Request): Promise<Response> {
    if (isDomainError(error)) return errorResponse(error);
    if (error instanceof ValidationError || code === 'VALIDATION') {
      const { message } = describeValidationError(error as ValidationError);
      return errorResponse(new DomainError('bad_request', message));
    }
    switch (code) {
      case 'PARSE': {
        // Our JSON reader's own verdicts (too large, malformed at position N) arrive as the parse error's cause.
        const cause = (error as Error).cause;
        if (isDomainError(cause)) return errorResponse(cause);
        return errorResponse(new DomainError('bad_request', 'the request body could not be parsed'));
      }
      case 'NOT_FOUND':
        return notRouted(request, methodsOf(new URL(request.url).pathname), options.authenticate);
      case 'INVALID_COOKIE_SIGNATURE':
        return errorResponse(new DomainError('bad_request', 'invalid cookie signature'));
    }
    // A bug: log it with its stack, answer without one.
    logger.error('unhandled error', { method: request.method, url: request.url, error: String(error), stack: (error as Error)?.stack });
    return errorResponse(new DomainError('internal_error', 'internal server error'));
  }

  // normalize: false makes unknown body fields a 400 (additionalProperties: false) instead of silently dropping them.
  const app = new Elysia({ name: 'loadplane', normalize: false })
    // The body limit is ours, on every runtime (the Bun entry lifts Bun's own, which answers an empty 413): a declared
    // length over it is refused before anything is read; a chunked body is read through our counting reader under
    // /api/v1, and refused elsewhere, where plugin routes read their bodies whole.
    .onRequest(({ request, server, set }) => {
      // Every answer, an error or a plugin's page too: a browser must never read a JSON body or a log as HTML.
      set.headers['x-content-type-options'] = 'nosniff';
      noteClientAddress(request, server, trustedProxies);
      const declared = request.headers.get('content-length');
      if (declared !== null && Number(declared) > maxBodyBytes) return errorResponse(tooLarge(maxBodyBytes));
      if (isChunked(request) && !new URL(request.url).pathname.startsWith('/api/v1/')) return errorResponse(lengthRequired());
    })
    .onError({ as: 'global' }, async ({ code, error, request, set }) => {
      // The status goes into the context too, so the response counter (onAfterResponse) sees it.
      const answer = await answerError(code, error, request);
      set.status = answer.status;
      return answer;
    })
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }, { title: 'Health' }) },
      detail: { tags: ['Service'], summary: 'Liveness: 200 once the service accepts requests' },
    })
    // Every answer counts toward GET /metrics, whichever hook produced it.
    .onAfterResponse({ as: 'global' }, ({ set, response }) => {
      const status = response instanceof Response ? response.status : Number(set.status ?? 200);
      options.serviceHealth.countResponse(Number.isFinite(status) ? status : 200);
    })
    .use(serviceMetricsRoute({ health: options.serviceHealth, metricsToken: options.metricsToken }))
    .use(apiDocs({ assets: options.assets, version: options.version, maxBodyBytes, routes: () => registered(), policies: options.routePolicies }));

  for (const plugin of options.pluginRoutes) app.use(plugin.routes);
  const pluginApi = buildPluginApiRoutes(options.pluginApiRoutes, {
    requireCaller: () => requireCaller(options.authenticate, options.routePolicies),
  });

  const complete = app.group('/api/v1', (api) =>
    api
      // JSON bodies go through our reader so the size limit holds for chunked bodies too. Local to /api/v1:
      // plugin routes (the IdP's forms, MCP's raw stream) read their own bodies with `parse: 'none'`.
      // Every body here is JSON or nothing: other types are refused unread (415), so no parser reads an unbounded body.
      // null (not undefined) marks the body as parsed, so Elysia's own parsers never touch the stream after us. A route
      // that takes another media type (OTLP protobuf, say) needs its own bounded reader and a carve-out here.
      .onParse(async ({ request, contentType, path }) => {
        // The OTLP receiver reads its own body (protobuf or JSON, gzip too) with its own bounded reader (otlp-body.ts).
        if (path === otlpMetricsPath) return null;
        if (isJsonType(contentType)) return (await readJsonBody(request, maxBodyBytes)) ?? null;
        // Prometheus clients POST their queries as forms: the text, bounded like JSON, for the route to read.
        if (contentType?.trim().toLowerCase() === 'application/x-www-form-urlencoded' && new URL(request.url).pathname.startsWith('/api/v1/prometheus/')) {
          return await readBodyText(request, maxBodyBytes);
        }
        if (hasBody(request)) throw notJson(contentType);
        return null;
      })
      .use(authRoutes(options))
      .use(machineRoutes(options))
      .use(testRoutes(options))
      .use(apiTokenRoutes(options))
      .use(workspaceRoutes(options))
      .use(usageRoutes(options))
      .use(invitationRoutes(options))
      .use(taskRoutes(options))
      .use(taskOtelRoutes(options))
      .use(taskTimeseriesRoutes(options))
      .use(taskEndpointRoutes(options))
      .use(taskCompareRoutes(options))
      .use(otlpRoutes(options))
      .use(configRoutes(options))
      .use(scheduleRoutes(options))
      .use(envVarRoutes(options))
      .use(dashboardRoutes(options))
      .use(gitRepoRoutes(options))
      .use(mcpServerRoutes(options))
      .use(mcpServerToolRoutes(options))
      .use(metricRoutes(options))
      .use(prometheusRoutes(options))
      .use(agentRoutes(options))
      .use(pluginApi),
  );
  registered = () => complete.routes;
  return complete;
}

/**
 * No route for this method: 405 with Allow when the path exists (204 with Allow for OPTIONS), else 404. A plain GET
 * on a WebSocket path is checked like the upgrade would be (401, 403) and then answered 426.
 */
async function notRouted(request: Request, path: PathMethods, authenticate: Authenticate): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (path.allow.length === 0) return errorResponse(new DomainError('not_found', `no route for ${request.method} ${pathname}`));
  if (path.websocket && (request.method === 'GET' || request.method === 'HEAD')) {
    try {
      enforcePolicy(await authenticate(request), 'GET', path.websocket);
    } catch (error) {
      if (isDomainError(error)) return errorResponse(error);
      throw error;
    }
    return errorResponse(new DomainError('upgrade_required', `${pathname} is a WebSocket endpoint: send a WebSocket upgrade request`), {
      upgrade: 'websocket',
      connection: 'Upgrade',
    });
  }
  const allow = path.allow.join(', ');
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
  return errorResponse(new DomainError('method_not_allowed', `${request.method} is not allowed on ${pathname}; allowed: ${allow}`), { allow });
}

export type LoadplaneApp = ReturnType<typeof createApp>;
