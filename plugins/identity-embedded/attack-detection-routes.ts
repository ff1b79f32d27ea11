/** Keycloak's attack-detection admin API: a user's brute-force state, and clearing it (one user, or the whole realm). */
import { Elysia } from 'elysia';
import { adminGuard } from './admin-routes.ts';
import { jsonResponse } from './oauth-responses.ts';
import type { RealmContext } from './realm-context.ts';
import { findRealmUserById } from './realm-users.ts';

export function attackDetectionRoutes(ctx: RealmContext) {
  const guard = adminGuard(ctx);
  const noContent = () => new Response(null, { status: 204 });

  return new Elysia({ prefix: '/admin/realms/:realm/attack-detection/brute-force/users' })
    .onBeforeHandle(({ params, request }) => guard((params as { realm: string }).realm, request))
    .get('/:id', async ({ params }) => {
      // Keycloak answers the same empty state for a user it has never seen fail.
      const user = await findRealmUserById(ctx.db, ctx.realm, params.id);
      const row = user ? await ctx.loginFailures.findForUser(user.id) : null;
      const now = Date.now();
      const locked = row !== null && (row.lockedPermanently || (row.notBefore !== null && row.notBefore !== undefined && row.notBefore.getTime() > now));
      return jsonResponse(200, {
        numFailures: row?.numFailures ?? 0,
        disabled: locked,
        lastIPFailure: row?.lastAddress ?? 'n/a',
        lastFailure: row && row.numFailures > 0 ? row.lastFailure.getTime() : 0,
      });
    })
    .delete('/:id', async ({ params }) => {
      const user = await findRealmUserById(ctx.db, ctx.realm, params.id);
      if (user) {
        await ctx.loginFailures.clearForUser(user.id);
        ctx.logger.info('brute-force lockout cleared', { userId: user.id, username: user.username });
      }
      return noContent();
    })
    .delete('', async () => {
      await ctx.loginFailures.clearAll();
      ctx.logger.info('brute-force lockouts cleared for the realm', { realm: ctx.realm });
      return noContent();
    });
}
