/** The browser flow: login page, authorization_code with PKCE (S256), code replay, and RP-initiated logout. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { decodeJwt } from 'jose';
import { s256Challenge } from './pkce.ts';
import { createRealmUser, type RealmUser } from './realm-users.ts';
import {
  FORM_HEADERS,
  formBody,
  HARNESS_TIMEOUT_MS,
  type IdpHarness,
  startIdpHarness,
  TEST_ISSUER,
  TEST_PASSWORD_ITERATIONS,
} from './test-kernel.ts';

const OIDC = '/auth/realms/loadplane/protocol/openid-connect';
const REDIRECT = 'http://app.example/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
let idp: IdpHarness;
let hedy: RealmUser;

const authorizeUrl = (overrides: Record<string, string | undefined> = {}) => {
  const parameters: Record<string, string> = {};
  const all: Record<string, string | undefined> = {
    client_id: 'loadplane',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid',
    state: 'st-123',
    nonce: 'n-456',
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) parameters[name] = value;
  return `${OIDC}/auth?${new URLSearchParams(parameters)}`;
};

/** Opens the login page and returns what a browser keeps: the cookie and the form's hidden state. */
async function openLogin(overrides: Record<string, string | undefined> = {}) {
  const challenge = await s256Challenge(VERIFIER);
  const response = await idp.request(authorizeUrl({ code_challenge: challenge, ...overrides }));
  expect(response.status).toBe(200);
  const page = await response.text();
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const loginState = /name="login_state" value="([^"]+)"/.exec(page)![1]!;
  return { page, cookie, loginState, headers: response.headers };
}

const submit = (fields: Record<string, string>, cookie?: string) =>
  idp.request(`${OIDC}/auth`, {
    method: 'POST',
    headers: { ...FORM_HEADERS, ...(cookie ? { cookie } : {}) },
    body: formBody(fields),
  });

async function signIn(): Promise<URL> {
  const { cookie, loginState } = await openLogin();
  const response = await submit({ login_state: loginState, username: 'hedy', password: 'frequency-hopping' }, cookie);
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  idp.token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });

beforeAll(async () => {
  idp = await startIdpHarness({ embedded: { redirectUris: [REDIRECT, 'http://app.example/signed-out*'] } });
  hedy = await createRealmUser(
    idp.db,
    'loadplane',
    { username: 'hedy', email: 'hedy@example.com', realmRoles: ['user'], password: 'frequency-hopping' },
    { passwordIterations: TEST_PASSWORD_ITERATIONS },
  );
}, HARNESS_TIMEOUT_MS);
afterAll(() => idp.stop(), HARNESS_TIMEOUT_MS);

describe('authorization code with PKCE', () => {
  test('login page, redirect with a code, code exchanged for tokens that verify', async () => {
    const { page, cookie, headers } = await openLogin();
    expect(page).toContain('<form method="post" action="/auth/realms/loadplane/protocol/openid-connect/auth">');
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('set-cookie')).toMatch(/Path=\/auth\/realms\/loadplane\/; Max-Age=1800; HttpOnly; SameSite=Lax$/);
    expect(cookie).toMatch(/^LOADPLANE_IDP_LOGIN=/);

    const location = await signIn();
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(TEST_ISSUER);
    const code = location.searchParams.get('code')!;

    const response = await exchange(code);
    expect(response.status).toBe(200);
    const tokens = await response.json();
    expect(tokens.scope).toBe('openid profile email');
    expect(tokens.session_state).toBe(location.searchParams.get('session_state'));
    expect(decodeJwt(tokens.id_token)).toMatchObject({ aud: 'loadplane', sub: hedy.id, nonce: 'n-456', typ: 'ID' });
    expect(await idp.verifier.verify(tokens.access_token)).toMatchObject({ sub: hedy.id, roles: ['user'] });
    expect((await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(200);
  });

  test('a replayed code is refused and ends the session it created', async () => {
    const code = (await signIn()).searchParams.get('code')!;
    const tokens = await (await exchange(code)).json();
    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid' });
    expect((await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  test('wrong or missing verifier, wrong redirect URI, unknown code: invalid_grant', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ code_verifier: 'x'.repeat(43) }, 'PKCE verification failed: Code mismatch'],
      [{ code_verifier: '' }, 'PKCE code verifier not specified'],
      [{ redirect_uri: 'http://app.example/other' }, 'Incorrect redirect_uri'],
    ];
    for (const [extra, description] of cases) {
      const code = (await signIn()).searchParams.get('code')!;
      const response = await exchange(code, extra);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: description });
    }
    expect((await exchange('made-up-code')).status).toBe(400);
  });

  test('a wrong password shows the page again with Keycloak\'s message, escaping what was typed', async () => {
    const { cookie, loginState } = await openLogin();
    const response = await submit({ login_state: loginState, username: '<script>x</script>', password: 'nope' }, cookie);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('Invalid username or password.');
    expect(page).toContain('value="&lt;script&gt;x&lt;/script&gt;"');
    expect(page).not.toContain('<script>');
  });

  test('the form only comes back from the browser it was given to', async () => {
    const { loginState } = await openLogin();
    const other = await openLogin();
    const fields = { login_state: loginState, username: 'hedy', password: 'frequency-hopping' };
    expect((await submit(fields)).status).toBe(400);
    expect((await submit(fields, other.cookie)).status).toBe(400);
    expect((await submit({ ...fields, login_state: 'forged' }, other.cookie)).status).toBe(400);
  });
});

describe('authorization request errors', () => {
  test('unknown client or redirect URI: an error page, never a redirect', async () => {
    for (const overrides of [
      { client_id: 'other' },
      { redirect_uri: 'http://evil.example/callback' },
      { redirect_uri: `${REDIRECT}/../x` },
      { redirect_uri: undefined },
    ]) {
      const response = await idp.request(authorizeUrl({ code_challenge: await s256Challenge(VERIFIER), ...overrides }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  test('other errors go back to the client with error and state', async () => {
    const challenge = await s256Challenge(VERIFIER);
    const cases: [Record<string, string | undefined>, string][] = [
      [{ response_type: 'token', code_challenge: challenge }, 'unsupported_response_type'],
      [{ code_challenge_method: undefined, code_challenge: challenge }, 'invalid_request'],
      [{ code_challenge_method: 'plain', code_challenge: challenge }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ prompt: 'none', code_challenge: challenge }, 'login_required'],
    ];
    for (const [overrides, error] of cases) {
      const response = await idp.request(authorizeUrl(overrides));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('st-123');
    }
  });
});

describe('RP-initiated logout', () => {
  test('id_token_hint ends the session and returns to an allowed URI', async () => {
    const code = (await signIn()).searchParams.get('code')!;
    const tokens = await (await exchange(code)).json();
    const target = 'http://app.example/signed-out?from=idp';
    const response = await idp.request(
      `${OIDC}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: target, state: 's' })}`,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://app.example/signed-out?from=idp&state=s');
    expect((await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  test('an unlisted redirect or a forged hint is refused; no hint shows a page', async () => {
    const bad = await idp.request(`${OIDC}/logout?client_id=loadplane&post_logout_redirect_uri=${encodeURIComponent('http://evil.example/')}`);
    expect(bad.status).toBe(400);
    expect((await idp.request(`${OIDC}/logout?id_token_hint=forged`)).status).toBe(400);
    const plain = await idp.request(`${OIDC}/logout`);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('You are signed out.');
  });
});
