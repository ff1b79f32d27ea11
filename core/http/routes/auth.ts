/** GET /auth/me: the identity behind the bearer token; GET /auth/me/workspaces: where it may act (the UI's workspace switcher). */
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

const MyWorkspace = t.Object(
  {
    id: t.String(),
    name: t.String(),
    plan: t.String(),
    role: t.String({ description: 'owner, admin, member or viewer' }),
    current: t.Boolean({ description: 'the workspace this request acts in (X-Workspace-Id, else the oldest membership)' }),
  },
  { title: 'MyWorkspace' },
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
    )
    .get('/me/workspaces', ({ caller }) => deps.workspaces.mine(caller), {
      response: { 200: t.Array(MyWorkspace), 401: errorResponses[401] },
      detail: {
        summary: 'The workspaces you may act in (send X-Workspace-Id to pick one), oldest membership first; an API token sees only its own',
        security: bearerSecurity,
      },
    });
