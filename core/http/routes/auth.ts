/** GET /auth/me: the identity behind the bearer token. */
import { Elysia, t } from 'elysia';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses } from '../schemas/common.ts';

const Identity = t.Object(
  {
    sub: t.String({ description: 'user UUID in the identity provider' }),
    email: t.Nullable(t.String()),
    name: t.Nullable(t.String()),
    preferred_username: t.Nullable(t.String()),
    roles: t.Array(t.String(), { description: 'realm roles' }),
  },
  { title: 'Identity' },
);

export const authRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/auth', detail: { tags: ['Auth'] } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/me',
      ({ caller }) => {
        const { sub, email, name, preferred_username, roles } = caller.identity;
        return { sub, email, name, preferred_username, roles };
      },
      {
        response: { 200: Identity, 401: errorResponses[401] },
        detail: { summary: 'The authenticated identity', security: bearerSecurity },
      },
    );
