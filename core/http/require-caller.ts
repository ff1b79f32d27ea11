/** Route-group plugin that authenticates every request of the group, enforces the route's policy, and puts the caller in the context. */
import { Elysia } from 'elysia';
import type { Authenticate } from './authenticate.ts';
import { enforcePolicy, routePolicies, type RoutePolicies } from './route-policy.ts';

// Unnamed on purpose: Elysia deduplicates named plugins, and every group needs its own copy of this hook.
// `derive` runs before body validation, so an unauthenticated request is a 401 whatever its body.
export const requireCaller = (authenticate: Authenticate, policies: RoutePolicies = routePolicies) =>
  new Elysia().derive({ as: 'scoped' }, async ({ request, route }) => {
    const caller = await authenticate(request);
    enforcePolicy(caller, request.method, route, policies);
    return { caller };
  });

/** The group plugin requireCaller makes: `.use()` it and every handler of the group has `caller`. */
export type CallerGuard = ReturnType<typeof requireCaller>;
