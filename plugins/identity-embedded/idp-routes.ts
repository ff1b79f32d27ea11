/** The embedded identity provider's HTTP surface: one Elysia instance under /auth, mounted by the host at its origin. */
import { Elysia } from 'elysia';
import { adminRoutes } from './admin-routes.ts';
import { attackDetectionRoutes } from './attack-detection-routes.ts';
import { createAuthorizationCodeStore } from './authorization-codes.ts';
import { browserRoutes } from './browser-routes.ts';
import { createCodeGrant } from './code-grant.ts';
import { loggableError } from './loggable-error.ts';
import { jsonResponse, NO_STORE } from './oauth-responses.ts';
import { oidcRoutes } from './oidc-routes.ts';
import type { RealmContext } from './realm-context.ts';

/** contract.md: {auth_url} is PUBLIC_URL + /auth when AUTH_URL is unset. */
export const IDP_MOUNT_PATH = '/auth';

/**
 * Unexpected failures of our routes answer in OAuth's shape rather than the REST API's. 'scoped' reaches the
 * /auth instance's routes and stops there; a host handler registered before mounting us still runs first.
 */
function errorAnswers(ctx: RealmContext) {
  return new Elysia().onError({ as: 'scoped' }, ({ code, error }) => {
    if (code === 'NOT_FOUND') return undefined;
    ctx.logger.error('identity provider request failed', { error: loggableError(error) });
    return jsonResponse(500, { error: 'unknown_error', error_description: 'Internal server error' }, NO_STORE);
  });
}

export function createIdpRoutes(ctx: RealmContext) {
  const codes = createAuthorizationCodeStore(ctx.db, ctx.realm);
  return new Elysia({ prefix: IDP_MOUNT_PATH })
    .use(errorAnswers(ctx))
    .use(oidcRoutes(ctx, createCodeGrant(codes)))
    .use(browserRoutes(ctx, codes))
    .use(adminRoutes(ctx))
    .use(attackDetectionRoutes(ctx));
}
