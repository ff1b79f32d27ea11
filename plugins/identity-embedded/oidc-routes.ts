/** The realm's OpenID Connect endpoints under /realms/{realm}: realm info, discovery, JWKS, token, userinfo and logout. */
import { Elysia } from 'elysia';
import { checkBearer } from './bearer-auth.ts';
import { clientAddress } from './client-address.ts';
import { authenticateClient } from './client-auth.ts';
import { discoveryDocument } from './discovery-document.ts';
import { readOAuthForm } from './oauth-form.ts';
import { jsonResponse, NO_STORE, oauthError, realmNotFound } from './oauth-responses.ts';
import type { RealmContext } from './realm-context.ts';
import { type CodeGrant, handleTokenRequest } from './token-endpoint.ts';

/** Metadata and keys change rarely; an hour of caching is what clients expect of a provider. */
const PUBLIC_CACHE = { 'cache-control': 'public, max-age=3600' };

export function oidcRoutes(ctx: RealmContext, codeGrant?: CodeGrant) {
  const known = (realm: string) => realm === ctx.realm;

  const userinfo = async ({ params, request }: { params: { realm: string }; request: Request }) => {
    if (!known(params.realm)) return realmNotFound();
    const check = await checkBearer(ctx, request);
    if (!check.ok) {
      const description = check.reason === 'missing' ? 'Token not provided' : 'Token verification failed';
      const error = check.reason === 'missing' ? 'invalid_request' : 'invalid_token';
      return oauthError(401, error, description, {
        'www-authenticate': `Bearer realm="${ctx.realm}", error="${error}", error_description="${description}"`,
      });
    }
    return jsonResponse(200, { sub: check.user.id, ...ctx.tokens.profileClaims(check.user) }, NO_STORE);
  };

  /** Keycloak's realm summary, which older adapters read for the key: base64 DER (SPKI), computed once. */
  let realmInfo: Promise<Record<string, unknown>> | null = null;
  const describeRealm = async () => {
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', ctx.key.publicKey));
    let binary = '';
    for (const byte of spki) binary += String.fromCharCode(byte);
    return {
      realm: ctx.realm,
      public_key: btoa(binary),
      'token-service': `${ctx.issuer}/protocol/openid-connect`,
      'account-service': `${ctx.issuer}/account`,
      'tokens-not-before': 0,
    };
  };

  return new Elysia()
    .get('/realms/:realm', async ({ params }) => {
      if (!known(params.realm)) return realmNotFound();
      realmInfo ??= describeRealm();
      return jsonResponse(200, await realmInfo, PUBLIC_CACHE);
    })
    .get('/realms/:realm/.well-known/openid-configuration', ({ params }) =>
      known(params.realm) ? jsonResponse(200, discoveryDocument(ctx), PUBLIC_CACHE) : realmNotFound(),
    )
    .get('/realms/:realm/protocol/openid-connect/certs', ({ params }) =>
      known(params.realm) ? jsonResponse(200, { keys: [ctx.key.publicJwk] }, PUBLIC_CACHE) : realmNotFound(),
    )
    .post(
      '/realms/:realm/protocol/openid-connect/token',
      ({ params, request }) =>
        known(params.realm) ? handleTokenRequest(ctx, request, clientAddress(request), codeGrant) : realmNotFound(),
      { parse: 'none' },
    )
    .get('/realms/:realm/protocol/openid-connect/userinfo', userinfo)
    .post('/realms/:realm/protocol/openid-connect/userinfo', userinfo, { parse: 'none' })
    .post('/realms/:realm/protocol/openid-connect/logout', async ({ params, request }) => {
      if (!known(params.realm)) return realmNotFound();
      const form = await readOAuthForm(request);
      if (!form.ok) return oauthError(400, 'invalid_request', form.description);
      const client = await authenticateClient(request, form.values, ctx.config, ctx.realm);
      if (!client.ok) return client.response;
      const refreshToken = form.values.refresh_token;
      if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing form parameter: refresh_token');
      const check = await ctx.tokens.verifyRefreshToken(refreshToken);
      if (!check.ok) return oauthError(400, 'invalid_grant', 'Invalid refresh token');
      if (check.claims.azp !== client.clientId) {
        return oauthError(400, 'invalid_grant', "Invalid refresh token. Token client and authorized client don't match");
      }
      // Ending a session that is already gone is still a success: logout is idempotent.
      await ctx.sessions.end(check.claims.sid);
      return new Response(null, { status: 204, headers: NO_STORE });
    }, { parse: 'none' });
}
