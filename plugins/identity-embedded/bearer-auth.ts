/** Checks a request's bearer access token against this realm: signature, expiry, a live session, an enabled user. */
import type { RealmContext } from './realm-context.ts';
import { findRealmUserById, type RealmUser } from './realm-users.ts';
import type { AccessTokenClaims } from './token-service.ts';

export type BearerCheck =
  | { ok: true; claims: AccessTokenClaims; user: RealmUser }
  | { ok: false; reason: 'missing' | 'invalid' };

export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

export async function checkBearer(ctx: RealmContext, request: Request): Promise<BearerCheck> {
  const token = bearerToken(request);
  if (!token) return { ok: false, reason: 'missing' };
  const claims = await ctx.tokens.verifyAccessToken(token);
  if (!claims) return { ok: false, reason: 'invalid' };
  // As Keycloak: a token of a session that was logged out no longer opens userinfo or the admin API.
  const session = await ctx.sessions.findActive(claims.sid);
  if (!session || session.userId !== claims.sub) return { ok: false, reason: 'invalid' };
  const user = await findRealmUserById(ctx.db, ctx.realm, claims.sub);
  if (!user || !user.enabled) return { ok: false, reason: 'invalid' };
  return { ok: true, claims, user };
}
