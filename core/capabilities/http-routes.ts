/** The http-routes capability: plugins mount their own Elysia routes (the embedded identity provider at /auth). */
import type { AnyElysia } from 'elysia';
import { defineCapability } from '../kernel/define-capability.ts';

export interface HttpRoutes {
  /** Unique name, for diagnostics. */
  name: string;
  /** An Elysia instance mounted at the origin's root; it brings its own prefix. */
  routes: AnyElysia;
}

export const httpRoutesCapability = defineCapability<HttpRoutes>({
  id: 'core.httpRoutes',
  cardinality: 'many',
  key: (entry) => entry.name,
});
