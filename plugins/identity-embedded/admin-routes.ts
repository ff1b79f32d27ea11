/** The admin API under /admin/realms/{realm}/users, as Keycloak's; callers need an access token with realm role `admin`. */
import { Elysia } from 'elysia';
import { DomainError } from 'loadplane/plugin';
import { checkBearer } from './bearer-auth.ts';
import { readJsonBody } from './json-body.ts';
import { jsonResponse, realmNotFound } from './oauth-responses.ts';
import type { RealmContext } from './realm-context.ts';
import { countRealmUsers, listRealmUsers, type RealmUserQuery } from './realm-user-search.ts';
import {
  createRealmUser,
  deleteRealmUser,
  findRealmUserById,
  type RealmUser,
  setRealmUserPassword,
  updateRealmUser,
} from './realm-users.ts';
import {
  parseNewUser,
  parsePasswordCredential,
  parseRoleNames,
  parseUserChanges,
  toRoleRepresentation,
  toUserRepresentation,
} from './user-representation.ts';

export const ADMIN_ROLE = 'admin';

const noContent = () => new Response(null, { status: 204 });
const userNotFound = () => jsonResponse(404, { error: 'User not found' });
const badRequest = (message: string, field?: string) =>
  jsonResponse(400, { errorMessage: message, ...(field ? { field } : {}) });

/** DomainErrors of the user functions, in Keycloak's shapes: 409 and 400 carry `errorMessage`. */
function fromDomainError(error: unknown): Response {
  if (error instanceof DomainError && error.code === 'conflict') return jsonResponse(409, { errorMessage: error.message });
  if (error instanceof DomainError && error.code === 'bad_request') {
    return badRequest(error.message, typeof error.details?.field === 'string' ? error.details.field : undefined);
  }
  throw error;
}

const toInteger = (value: string | undefined) => (value !== undefined && /^-?\d+$/.test(value) ? Number(value) : undefined);
const toBoolean = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : undefined);

function readQuery(query: Record<string, string | undefined>): RealmUserQuery {
  return {
    search: query.search,
    username: query.username,
    email: query.email,
    firstName: query.firstName,
    lastName: query.lastName,
    exact: toBoolean(query.exact),
    enabled: toBoolean(query.enabled),
    first: toInteger(query.first),
    max: toInteger(query.max),
  };
}


/** Realm, then token, then role: the answer for the first check that fails; undefined lets the route run. */
export function adminGuard(ctx: RealmContext) {
  return async (realm: string, request: Request): Promise<Response | undefined> => {
    if (realm !== ctx.realm) return realmNotFound();
    const check = await checkBearer(ctx, request);
    if (!check.ok) {
      return jsonResponse(401, { error: 'HTTP 401 Unauthorized' }, { 'www-authenticate': `Bearer realm="${ctx.realm}"` });
    }
    if (!check.user.realmRoles.includes(ADMIN_ROLE)) return jsonResponse(403, { error: 'HTTP 403 Forbidden' });
    return undefined;
  };
}

export function adminRoutes(ctx: RealmContext) {
  const guard = adminGuard(ctx);

  const changeRoles = async (id: string, request: Request, change: (roles: Set<string>, names: string[]) => void) => {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const names = parseRoleNames(body.value);
    if (!names.ok) return badRequest(names.message);
    const user = await findRealmUserById(ctx.db, ctx.realm, id);
    if (!user) return userNotFound();
    const roles = new Set(user.realmRoles);
    change(roles, names.value);
    try {
      await updateRealmUser(ctx.db, ctx.realm, id, { realmRoles: [...roles] });
    } catch (error) {
      return fromDomainError(error);
    }
    return noContent();
  };

  const location = (user: RealmUser) => `${ctx.baseUrl}/admin/realms/${encodeURIComponent(ctx.realm)}/users/${user.id}`;

  // Bodies are read by readJsonBody (`parse: 'none'`), so a malformed one answers in Keycloak's shape, not the host's.
  const raw = { parse: 'none' } as const;
  return new Elysia({ prefix: '/admin/realms/:realm/users' })
    .onBeforeHandle(({ params, request }) => guard((params as { realm: string }).realm, request))
    .post('', async ({ request }) => {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const parsed = parseNewUser(body.value);
      if (!parsed.ok) return badRequest(parsed.message, parsed.field);
      try {
        const user = await createRealmUser(ctx.db, ctx.realm, parsed.value, {
          passwordIterations: ctx.config.passwordIterations,
        });
        ctx.logger.info('realm user created', { userId: user.id, username: user.username });
        return new Response(null, { status: 201, headers: { location: location(user) } });
      } catch (error) {
        return fromDomainError(error);
      }
    }, raw)
    .get('', async ({ query }) => {
      const users = await listRealmUsers(ctx.db, ctx.realm, readQuery(query));
      return jsonResponse(200, users.map(toUserRepresentation));
    })
    .get('/count', async ({ query }) => jsonResponse(200, await countRealmUsers(ctx.db, ctx.realm, readQuery(query))))
    .get('/:id', async ({ params }) => {
      const user = await findRealmUserById(ctx.db, ctx.realm, params.id);
      return user ? jsonResponse(200, toUserRepresentation(user)) : userNotFound();
    })
    .put('/:id', async ({ params, request }) => {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const parsed = parseUserChanges(body.value);
      if (!parsed.ok) return badRequest(parsed.message, parsed.field);
      try {
        const user = await updateRealmUser(ctx.db, ctx.realm, params.id, parsed.value);
        return user ? noContent() : userNotFound();
      } catch (error) {
        return fromDomainError(error);
      }
    }, raw)
    .delete('/:id', async ({ params }) => {
      if (!(await deleteRealmUser(ctx.db, ctx.realm, params.id))) return userNotFound();
      ctx.logger.info('realm user deleted', { userId: params.id });
      return noContent();
    })
    .put('/:id/reset-password', async ({ params, request }) => {
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const credential = parsePasswordCredential(body.value);
      if (!credential.ok) return badRequest(credential.message, credential.field);
      try {
        const done = await setRealmUserPassword(ctx.db, ctx.realm, params.id, credential.value.value, {
          temporary: credential.value.temporary,
          passwordIterations: ctx.config.passwordIterations,
        });
        if (!done) return userNotFound();
        ctx.logger.info('realm user password reset', { userId: params.id, temporary: credential.value.temporary });
        await ctx.passwordChanged(params.id);
        return noContent();
      } catch (error) {
        return fromDomainError(error);
      }
    }, raw)
    .get('/:id/role-mappings/realm', async ({ params }) => {
      const user = await findRealmUserById(ctx.db, ctx.realm, params.id);
      if (!user) return userNotFound();
      return jsonResponse(200, user.realmRoles.map((role) => toRoleRepresentation(role, ctx.realm)));
    })
    .post(
      '/:id/role-mappings/realm',
      ({ params, request }) => changeRoles(params.id, request, (roles, names) => names.forEach((name) => roles.add(name))),
      raw,
    )
    .delete(
      '/:id/role-mappings/realm',
      ({ params, request }) => changeRoles(params.id, request, (roles, names) => names.forEach((name) => roles.delete(name))),
      raw,
    );
}
