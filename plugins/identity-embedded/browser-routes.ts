/** The browser flow: the login page (authorization endpoint, code + PKCE S256) and RP-initiated logout. */
import { Elysia } from 'elysia';
import type { AuthorizationCodeStore } from './authorization-codes.ts';
import { clientAddress } from './client-address.ts';
import { loginPage, messagePage, PAGE_HEADERS } from './login-page.ts';
import {
  type AuthorizationRequest,
  loginCookieHeader,
  newLoginCookieValue,
  readLoginCookie,
  signLoginState,
  verifyLoginState,
} from './login-state.ts';
import { readOAuthForm } from './oauth-form.ts';
import { realmNotFound } from './oauth-responses.ts';
import { type SignInResult, signInWithPassword } from './password-sign-in.ts';
import { isCodeChallenge } from './pkce.ts';
import { findClient, type RealmClient } from './realm-clients.ts';
import { grantedScope, type RealmContext } from './realm-context.ts';
import { redirectUriAllowed, withQuery } from './redirect-uris.ts';
import { logRefusal } from './sign-in-refusals.ts';

type Query = Record<string, unknown>;

/** One value of a query parameter; a repeated one counts as absent (RFC 6749 3.1). */
const single = (query: Query, name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);

const html = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { ...PAGE_HEADERS, ...headers } });

const redirect = (location: string) => new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });

/** What the login page says for each refusal of the password check, in Keycloak's words where it has them. */
const loginErrors: Record<string, string> = {
  'Invalid user credentials': 'Invalid username or password.',
  'Account disabled': 'Account is disabled, contact your administrator.',
  'Account is not fully set up': 'Your password must be changed before you can sign in; ask an administrator to reset it.',
};

/** "45 seconds", "1 minute", "15 minutes": rounded up, so the page never promises too early. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The login page's status, message and headers for a refusal; Keycloak's words for the account's own states. */
function loginRefusal(result: Extract<SignInResult, { ok: false }>): { status: number; error: string; headers: Record<string, string> } {
  const retry = (seconds: number | null): Record<string, string> => (seconds === null ? {} : { 'retry-after': String(seconds) });
  switch (result.kind) {
    case 'refused':
      return { status: 200, error: loginErrors[result.description] ?? result.description, headers: {} };
    case 'locked':
      if (result.subject === 'address') {
        return {
          status: 429,
          error: `Too many failed sign-ins from your network; try again in ${duration(result.retryAfterSeconds ?? 60)}.`,
          headers: retry(result.retryAfterSeconds),
        };
      }
      return result.retryAfterSeconds === null
        ? { status: 200, error: 'Account is disabled after too many failed sign-ins; contact your administrator.', headers: {} }
        : {
            status: 200,
            error: `Account is temporarily disabled after too many failed sign-ins; try again in ${duration(result.retryAfterSeconds)}.`,
            headers: retry(result.retryAfterSeconds),
          };
    case 'busy':
      return { status: 503, error: 'The server is busy signing in others; try again in a moment.', headers: retry(result.retryAfterSeconds) };
  }
}

export function browserRoutes(ctx: RealmContext, codes: AuthorizationCodeStore) {
  const known = (realm: string) => realm === ctx.realm;
  const action = `${new URL(ctx.issuer).pathname}/protocol/openid-connect/auth`;
  /** A redirect URI the client registered: the confidential client's, or the public client's (the UI's own origin). */
  const allowed = (client: RealmClient, uri: string | undefined): uri is string =>
    uri !== undefined && redirectUriAllowed(uri, client.redirectUris);

  const showLogin = (
    loginState: string,
    extra: { username?: string; error?: string; cookie?: string; status?: number; headers?: Record<string, string> } = {},
  ) =>
    html(extra.status ?? 200, loginPage({ realm: ctx.realm, action, loginState, username: extra.username, error: extra.error }), {
      ...extra.headers,
      ...(extra.cookie ? { 'set-cookie': loginCookieHeader(ctx, extra.cookie) } : {}),
    });

  return new Elysia()
    .get('/realms/:realm/protocol/openid-connect/auth', async ({ params, query }) => {
      if (!known(params.realm)) return realmNotFound();
      // Until client and redirect URI are proven, errors are shown here: never send the browser somewhere unchecked.
      const client = findClient(ctx.config, single(query, 'client_id'));
      if (!client) return html(400, messagePage('Sign-in error', 'Client not found.'));
      const redirectUri = single(query, 'redirect_uri');
      if (!allowed(client, redirectUri)) return html(400, messagePage('Sign-in error', 'Invalid parameter: redirect_uri'));
      const state = single(query, 'state');
      const back = (error: string, description?: string) =>
        redirect(withQuery(redirectUri, { error, error_description: description, state, iss: ctx.issuer }));

      if (single(query, 'response_type') !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported');
      const method = single(query, 'code_challenge_method');
      if (method === undefined) return back('invalid_request', 'Missing parameter: code_challenge_method');
      if (method !== 'S256') return back('invalid_request', 'Invalid parameter: code_challenge_method');
      const codeChallenge = single(query, 'code_challenge') ?? '';
      if (!isCodeChallenge(codeChallenge)) return back('invalid_request', 'Invalid parameter: code_challenge');
      // No single-sign-on cookie is kept, so there is never a session to reuse silently.
      if ((single(query, 'prompt') ?? '').split(' ').includes('none')) return back('login_required');

      const request: AuthorizationRequest = {
        clientId: client.clientId,
        redirectUri,
        scope: grantedScope(single(query, 'scope')),
        state,
        nonce: single(query, 'nonce'),
        codeChallenge,
      };
      const cookie = newLoginCookieValue();
      return showLogin(await signLoginState(ctx, request, cookie), { cookie, username: single(query, 'login_hint') });
    })
    .post(
      '/realms/:realm/protocol/openid-connect/auth',
      async ({ params, request }) => {
        if (!known(params.realm)) return realmNotFound();
        const form = await readOAuthForm(request);
        const loginState = form.ok ? form.values.login_state : undefined;
        const pending = loginState ? await verifyLoginState(ctx, loginState, readLoginCookie(request)) : null;
        if (!form.ok || !loginState || !pending) {
          return html(400, messagePage('Sign-in expired', 'Your login attempt timed out or came from elsewhere. Start again from the application.'));
        }
        const { username, password } = form.values;
        const address = clientAddress(request);
        const result = await signInWithPassword({ ...ctx, passwordIterations: ctx.config.passwordIterations }, { username, password }, address);
        if (!result.ok) {
          logRefusal(ctx, 'browser sign-in', result, address);
          return showLogin(loginState, { username, ...loginRefusal(result) });
        }
        const session = await ctx.sessions.create({ userId: result.user.id, clientId: pending.clientId, scope: pending.scope });
        const code = await codes.issue({
          sessionId: session.id,
          userId: result.user.id,
          clientId: pending.clientId,
          redirectUri: pending.redirectUri,
          codeChallenge: pending.codeChallenge,
          nonce: pending.nonce,
          scope: pending.scope,
        });
        return redirect(
          withQuery(pending.redirectUri, { code, state: pending.state, session_state: session.id, iss: ctx.issuer }),
        );
      },
      { parse: 'none' },
    )
    .get('/realms/:realm/protocol/openid-connect/logout', async ({ params, query }) => {
      if (!known(params.realm)) return realmNotFound();
      const hint = single(query, 'id_token_hint');
      const claims = hint ? await ctx.tokens.verifyIdTokenHint(hint) : null;
      if (hint && !claims) return html(400, messagePage('Logout error', 'Invalid parameter: id_token_hint'));
      const target = single(query, 'post_logout_redirect_uri');
      // As Keycloak: a redirect after logout needs to know the client, through the hint or client_id (the same one when both).
      const named = single(query, 'client_id');
      const client = claims && named !== undefined && named !== claims.azp ? null : findClient(ctx.config, claims?.azp ?? named);
      if (target !== undefined && !(client && allowed(client, target))) {
        return html(400, messagePage('Logout error', 'Invalid redirect uri'));
      }
      if (claims) await ctx.sessions.end(claims.sid);
      if (target !== undefined) return redirect(withQuery(target, { state: single(query, 'state') }));
      return html(200, messagePage('Signed out', 'You are signed out.'));
    });
}
