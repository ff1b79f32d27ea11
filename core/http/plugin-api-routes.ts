/**
 * Plugins' API routes (the api-routes capability): their access policies merged with core's, no key declared twice, and
 * every route they bring checked to have one, at boot, naming the plugin.
 */
import type { AnyElysia } from 'elysia';
import type { ApiRouteKit, ApiRoutes } from '../capabilities/api-routes.ts';
import { KernelBootError } from '../kernel/errors.ts';
import { policyKey, type RoutePolicies, type RoutePolicy } from './route-policy.ts';

const policyKeyShape = /^(GET|POST|PUT|PATCH|DELETE) \/api\/v1\/\S+$/;

export function mergeRoutePolicies(core: RoutePolicies, plugins: readonly ApiRoutes[]): RoutePolicies {
  const merged: Record<string, RoutePolicy> = { ...core };
  for (const entry of plugins) {
    for (const [key, policy] of Object.entries(entry.policies)) {
      if (!policyKeyShape.test(key)) throw new KernelBootError(`plugin ${entry.name}: the policy key "${key}" is not "METHOD /api/v1/path"`);
      if (merged[key]) throw new KernelBootError(`plugin ${entry.name}: ${key} already has an access policy (${core[key] ? "core's" : "another plugin's"})`);
      merged[key] = policy;
    }
  }
  return Object.freeze(merged);
}

/** Each plugin's routes, built with the kit; a route without its own policy fails the boot (fail closed, as core's). */
export function buildPluginApiRoutes(plugins: readonly ApiRoutes[], kit: ApiRouteKit): AnyElysia[] {
  return plugins.map((entry) => {
    const routes = entry.routes(kit);
    for (const route of routes.routes) {
      const key = policyKey(route.method, `/api/v1${route.path}`);
      if (!entry.policies[key]) throw new KernelBootError(`plugin ${entry.name}: its route ${key} declares no access policy`);
    }
    return routes;
  });
}
