/** The browser sign-in's pending request, carried through the login form signed by the realm key and bound to a cookie. */
import { base64url, jwtVerify, SignJWT } from 'jose';
import type { RealmContext } from './realm-context.ts';

/** Keycloak's default "Login timeout": how long the form may sit before it is submitted. */
export const LOGIN_TIMEOUT_SECONDS = 30 * 60;
export const LOGIN_COOKIE = 'LOADPLANE_IDP_LOGIN';

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state?: string;
  nonce?: string;
  codeChallenge: string;
}

const digest = async (text: string) =>
  base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));

/** A fresh random value for the login cookie: the form is only accepted back from the browser that holds it. */
export const newLoginCookieValue = () => base64url.encode(crypto.getRandomValues(new Uint8Array(32)));

export function loginCookieHeader(ctx: RealmContext, value: string): string {
  const path = `${new URL(ctx.issuer).pathname}/`;
  const secure = ctx.issuer.startsWith('https:') ? '; Secure' : '';
  // SameSite=Lax: a cross-site form post arrives without it, which defeats login CSRF.
  return `${LOGIN_COOKIE}=${value}; Path=${path}; Max-Age=${LOGIN_TIMEOUT_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

export function readLoginCookie(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LOGIN_COOKIE) return value.join('=');
  }
  return null;
}

export async function signLoginState(ctx: RealmContext, request: AuthorizationRequest, cookie: string): Promise<string> {
  return new SignJWT({ ...request, typ: 'LoginState', csrf: await digest(cookie) })
    .setProtectedHeader({ alg: ctx.key.alg, kid: ctx.key.kid })
    .setIssuer(ctx.issuer)
    .setAudience(ctx.issuer)
    .setIssuedAt()
    .setExpirationTime(`${LOGIN_TIMEOUT_SECONDS}s`)
    .sign(ctx.key.privateKey);
}

/** The pending request, or null when the state is forged, expired or was issued to another browser. */
export async function verifyLoginState(
  ctx: RealmContext,
  state: string,
  cookie: string | null,
): Promise<AuthorizationRequest | null> {
  if (!cookie) return null;
  try {
    const { payload } = await jwtVerify(state, ctx.key.publicKey, {
      issuer: ctx.issuer,
      audience: ctx.issuer,
      algorithms: [ctx.key.alg],
    });
    if (payload.typ !== 'LoginState' || payload.csrf !== (await digest(cookie))) return null;
    const { clientId, redirectUri, scope, state: clientState, nonce, codeChallenge } = payload as unknown as AuthorizationRequest;
    return { clientId, redirectUri, scope, state: clientState, nonce, codeChallenge };
  } catch {
    return null;
  }
}
