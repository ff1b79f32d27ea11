/** POST .../protocol/openid-connect/token: the password, refresh_token and authorization_code grants. */
import { authenticateClient } from './client-auth.ts';
import { readOAuthForm } from './oauth-form.ts';
import { jsonResponse, NO_STORE, oauthError } from './oauth-responses.ts';
import { signInWithPassword } from './password-sign-in.ts';
import { grantedScope, type RealmContext } from './realm-context.ts';
import { findRealmUserById } from './realm-users.ts';
import { logRefusal, tokenEndpointRefusal } from './sign-in-refusals.ts';

/** The authorization_code grant lives with the login page; this is its seam. */
export type CodeGrant = (ctx: RealmContext, form: Record<string, string>, clientId: string) => Promise<Response>;

/** `address`: the client's, for the per-address brute-force limit; null for an in-process request. */
export async function handleTokenRequest(
  ctx: RealmContext,
  request: Request,
  address: string | null,
  codeGrant?: CodeGrant,
): Promise<Response> {
  const form = await readOAuthForm(request);
  if (!form.ok) return oauthError(400, 'invalid_request', form.description);
  const values = form.values;
  const client = await authenticateClient(request, values, ctx.config, ctx.realm);
  if (!client.ok) return client.response;

  switch (values.grant_type) {
    case undefined:
    case '':
      return oauthError(400, 'invalid_request', 'Missing form parameter: grant_type');
    case 'password':
      // Keycloak's answer when "Direct access grants" is off: a public client signs in through the login page.
      if (!client.client.passwordGrant) return oauthError(400, 'unauthorized_client', 'Client not allowed for direct access grants');
      return passwordGrant(ctx, values, client.clientId, address);
    case 'refresh_token':
      return refreshGrant(ctx, values, client.clientId);
    case 'authorization_code':
      if (codeGrant) return codeGrant(ctx, values, client.clientId);
      return oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
    default:
      return oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
  }
}

async function passwordGrant(
  ctx: RealmContext,
  form: Record<string, string>,
  clientId: string,
  address: string | null,
): Promise<Response> {
  const result = await signInWithPassword(
    { ...ctx, passwordIterations: ctx.config.passwordIterations },
    { username: form.username, password: form.password },
    address,
  );
  if (!result.ok) {
    logRefusal(ctx, 'password grant', result, address);
    return tokenEndpointRefusal(result);
  }
  const scope = grantedScope(form.scope);
  const session = await ctx.sessions.create({ userId: result.user.id, clientId, scope });
  const tokens = await ctx.tokens.issue({ user: result.user, session, scope, idToken: scope.startsWith('openid') });
  return jsonResponse(200, tokens, NO_STORE);
}

async function refreshGrant(ctx: RealmContext, form: Record<string, string>, clientId: string): Promise<Response> {
  if (!form.refresh_token) return oauthError(400, 'invalid_request', 'Missing form parameter: refresh_token');
  const check = await ctx.tokens.verifyRefreshToken(form.refresh_token);
  if (!check.ok) {
    return oauthError(400, 'invalid_grant', check.reason === 'expired' ? 'Token is not active' : 'Invalid refresh token');
  }
  const { claims } = check;
  if (claims.azp !== clientId) {
    return oauthError(400, 'invalid_grant', "Invalid refresh token. Token client and authorized client don't match");
  }
  const session = await ctx.sessions.findActive(claims.sid);
  if (!session || session.userId !== claims.sub) return oauthError(400, 'invalid_grant', 'Session not active');
  const user = await findRealmUserById(ctx.db, ctx.realm, session.userId);
  if (!user || !user.enabled) {
    await ctx.sessions.end(session.id);
    return oauthError(400, 'invalid_grant', user ? 'User disabled' : 'Session not active');
  }
  const refreshed = await ctx.sessions.touch(session);
  const tokens = await ctx.tokens.issue({ user, session: refreshed, scope: refreshed.scope, idToken: refreshed.scope.startsWith('openid') });
  return jsonResponse(200, tokens, NO_STORE);
}
