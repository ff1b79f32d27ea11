/** The HTTP application: error mapping, body limits, health, API docs, plugin routes and the /api/v1 resources. */
import { Elysia, ValidationError } from 'elysia';
import type { HttpRoutes } from '../capabilities/http-routes.ts';
import { DomainError } from '../kernel/errors.ts';
import type { Logger } from '../kernel/logger.ts';
import type { StaticAssets } from '../ports/static-assets.ts';
import { apiDocs } from './api-docs.ts';
import { errorResponse, isDomainError } from './error-mapper.ts';
import { readJsonBody, tooLarge } from './read-body.ts';
import type { RouteDeps } from './route-deps.ts';
import { agentRoutes } from './routes/agent.ts';
import { apiTokenRoutes } from './routes/api-tokens.ts';
import { authRoutes } from './routes/auth.ts';
import { configRoutes } from './routes/configs.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { notificationPreferenceRoutes } from './routes/notification-preferences.ts';
import { machineRoutes } from './routes/machines.ts';
import { taskRoutes } from './routes/tasks.ts';
import { testRoutes } from './routes/tests.ts';
import { workspaceRoutes } from './routes/workspace.ts';
import { describeValidationError } from './validation-message.ts';

export interface AppOptions extends RouteDeps {
  logger: Logger;
  maxBodyBytes: number;
  version: string;
  pluginRoutes: readonly HttpRoutes[];
  assets: StaticAssets | null;
}

export function createApp(options: AppOptions) {
  const { logger, maxBodyBytes } = options;
  // normalize: false makes unknown body fields a 400 (additionalProperties: false) instead of silently dropping them.
  const app = new Elysia({ name: 'loadplane', normalize: false })
    .onRequest(({ request }) => {
      const declared = request.headers.get('content-length');
      if (declared !== null && Number(declared) > maxBodyBytes) return errorResponse(tooLarge(maxBodyBytes));
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
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
          return errorResponse(new DomainError('not_found', `no route for ${request.method} ${new URL(request.url).pathname}`));
        case 'INVALID_COOKIE_SIGNATURE':
          return errorResponse(new DomainError('bad_request', 'invalid cookie signature'));
      }
      // A bug: log it with its stack, answer without one.
      logger.error('unhandled error', { method: request.method, url: request.url, error: String(error), stack: (error as Error)?.stack });
      return errorResponse(new DomainError('internal_error', 'internal server error'));
    })
    .get('/healthz', () => ({ status: 'ok' as const }), { detail: { hide: true } })
    .use(apiDocs(options.assets, options.version));

  for (const plugin of options.pluginRoutes) app.use(plugin.routes);

  return app.group('/api/v1', (api) =>
    api
      // JSON bodies go through our reader so the size limit holds for chunked bodies too. Local to /api/v1:
      // plugin routes (the IdP's forms, MCP's raw stream) read their own bodies with `parse: 'none'`.
      .onParse(async ({ request, contentType }) => {
        if (contentType?.startsWith('application/json')) return readJsonBody(request, maxBodyBytes);
      })
      .use(authRoutes(options))
      .use(machineRoutes(options))
      .use(testRoutes(options))
      .use(apiTokenRoutes(options))
      .use(workspaceRoutes(options))
      .use(taskRoutes(options))
      .use(configRoutes(options))
      .use(webhookRoutes(options))
      .use(notificationPreferenceRoutes(options))
      .use(agentRoutes(options)),
  );
}

export type LoadplaneApp = ReturnType<typeof createApp>;
