/**
 * Route wiring: the HTTP application over core's services (its /api/v1 resources, health, API docs) and the plugins'
 * routes (mounted at the root, or under /api/v1 with their access policies merged with core's).
 */
import { type HttpAppParts, serviceVersion } from '../../core/boot-service.ts';
import { apiEndpointsCapability } from '../../core/capabilities/api-endpoints.ts';
import { apiRoutesCapability } from '../../core/capabilities/api-routes.ts';
import { httpRoutesCapability } from '../../core/capabilities/http-routes.ts';
import { parseCidr } from '../../core/domain/ip-address.ts';
import { createApp } from '../../core/http/create-app.ts';
import { endpointRoutes } from '../../core/http/plugin-api-endpoints.ts';
import { mergeRoutePolicies } from '../../core/http/plugin-api-routes.ts';
import { routePolicies as coreRoutePolicies } from '../../core/http/route-policy.ts';

export function wireHttpApp({ deps, kernel, settings, logger, metricsToken, serviceHealth, assets }: HttpAppParts) {
  // Endpoints declared as data (the published kit's form) become routes like the built-in plugins' own.
  const pluginApiRoutes = [...kernel.getAll(apiRoutesCapability), ...kernel.getAll(apiEndpointsCapability).map(endpointRoutes)];
  const routePolicies = mergeRoutePolicies(coreRoutePolicies, pluginApiRoutes);
  const app = createApp({
    ...deps,
    logger,
    maxBodyBytes: settings.maxBodyBytes,
    trustedProxies: settings.trustedProxies.map((entry) => parseCidr(entry)!),
    serviceHealth,
    metricsToken,
    version: serviceVersion,
    pluginRoutes: kernel.getAll(httpRoutesCapability),
    pluginApiRoutes,
    routePolicies,
    assets,
  });
  return { app, routePolicies };
}
