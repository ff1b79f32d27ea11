/**
 * The api-routes capability: a plugin's own REST resources under /api/v1, served like core's: the same body reader and
 * limits, bearer authentication and X-Workspace-Id, a declared access policy per route (fail closed), `{error, message}`
 * errors, and a place in the OpenAPI document.
 */
import type { AnyElysia } from 'elysia';
import { defineCapability } from '../kernel/define-capability.ts';
import type { RoutePolicy } from '../http/route-policy.ts';
import type { CallerGuard } from '../http/require-caller.ts';

/** What the host hands a plugin's API routes. */
export interface ApiRouteKit {
  /**
   * For `.use()` at the top of a route group: authenticates each request, enforces its route's policy (403 when the
   * token's scopes or the caller's role fall short), and puts the `caller` (user, workspace, role) in the context.
   */
  requireCaller(): CallerGuard;
}

export interface ApiRoutes {
  /** Unique name, for diagnostics (the plugin's name will do). */
  name: string;
  /**
   * Each route's policy, keyed `METHOD /api/v1/path` with `:param`s as Elysia writes them (`GET /api/v1/things/:id`).
   * A route of `routes` without a policy, or a key core already declares, fails the boot.
   */
  policies: Readonly<Record<string, RoutePolicy>>;
  /** The routes, relative to /api/v1: each group brings its own prefix (`new Elysia({ prefix: '/things' })`). */
  routes(kit: ApiRouteKit): AnyElysia;
}

export const apiRoutesCapability = defineCapability<ApiRoutes>({
  id: 'core.apiRoutes',
  cardinality: 'many',
  key: (entry) => entry.name,
});
