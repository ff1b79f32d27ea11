/** The token endpoint's authorization_code grant: a one-time code, its redirect URI and the PKCE verifier (S256). */
import type { AuthorizationCodeStore } from './authorization-codes.ts';
import { jsonResponse, NO_STORE, oauthError } from './oauth-responses.ts';
import { verifyPkce } from './pkce.ts';
import type { RealmContext } from './realm-context.ts';
import { findRealmUserById } from './realm-users.ts';
import type { CodeGrant } from './token-endpoint.ts';

export function createCodeGrant(codes: AuthorizationCodeStore): CodeGrant {
  return async (ctx: RealmContext, form: Record<string, string>, clientId: string) => {
    if (!form.code) return oauthError(400, 'invalid_request', 'Missing parameter: code');
    const redemption = await codes.redeem(form.code);
    if (!redemption.ok) {
      if (redemption.reason === 'reused') {
        // RFC 6749 4.1.2: a replayed code may mean it leaked; revoke what it gave.
        ctx.logger.warn('authorization code used twice; ending its session', { sessionId: redemption.sessionId });
        await ctx.sessions.end(redemption.sessionId);
      }
      return oauthError(400, 'invalid_grant', 'Code not valid');
    }
    const { code } = redemption;
    if (code.clientId !== clientId) return oauthError(400, 'invalid_grant', 'Code not valid');
    if (form.redirect_uri !== code.redirectUri) return oauthError(400, 'invalid_grant', 'Incorrect redirect_uri');
    if (!form.code_verifier) return oauthError(400, 'invalid_grant', 'PKCE code verifier not specified');
    if (!(await verifyPkce(form.code_verifier, code.codeChallenge))) {
      return oauthError(400, 'invalid_grant', 'PKCE verification failed: Code mismatch');
    }
    const session = await ctx.sessions.findActive(code.sessionId);
    const user = session ? await findRealmUserById(ctx.db, ctx.realm, session.userId) : null;
    if (!session || !user || !user.enabled) return oauthError(400, 'invalid_grant', 'Session not active');
    const tokens = await ctx.tokens.issue({
      user,
      session,
      scope: code.scope,
      idToken: code.scope.split(' ').includes('openid'),
      nonce: code.nonce ?? undefined,
    });
    return jsonResponse(200, tokens, NO_STORE);
  };
}
