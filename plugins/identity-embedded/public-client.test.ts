/** The public client `loadplane-ui` (the bundled UI): code + PKCE through the login page, no secret, same origin only. */
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
  TEST_CLIENT_ID,
  TEST_PASSWORD_ITERATIONS,
  type TokenAnswer,
} from './test-kernel.ts';

const OIDC = '/auth/realms/loadplane/protocol/openid-connect';
const UI = 'loadplane-ui';
const ORIGIN = 'http://localhost:8080';
const CALLBACK = `${ORIGIN}/signin-callback`;
const CONFIDENTIAL_REDIRECT = 'http://app.example/callback';
const VERIFIER = 'M25iVXpKU3puUjFaYWg3T1NDTDQtcW1ROUY5YXlwalNoc0hhakxifmZHag';
let idp: IdpHarness;
let ada: RealmUser;

const authorizeUrl = (overrides: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    client_id: UI,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'openid profile email',
    state: 'ui-state',
    nonce: 'ui-nonce',
    code_challenge_method: 'S256',
    ...overrides,
  };
  const parameters = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return `${OIDC}/auth?${new URLSearchParams(parameters)}`;
};

/** What a browser does: open the login page, post the form with its cookie, follow the redirect back. */
async function signIn(overrides: Record<string, string | undefined> = {}): Promise<URL> {
  const page = await idp.request(authorizeUrl({ code_challenge: await s256Challenge(VERIFIER), ...overrides }));
  expect(page.status).toBe(200);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const loginState = /name="login_state" value="([^"]+)"/.exec(await page.text())![1]!;
  const posted = await idp.request(`${OIDC}/auth`, {
    method: 'POST',
    headers: { ...FORM_HEADERS, cookie },
    body: formBody({ login_state: loginState, username: 'ada', password: 'analytical-engine' }),
  });
  expect(posted.status).toBe(302);
  return new URL(posted.headers.get('location')!);
}

/** The UI's token requests: client_id in the form, no secret (auth method `none`). */
const uiToken = (fields: Record<string, string>) => idp.token({ client_id: UI, ...fields }, { withClient: false });

async function uiTokens(): Promise<TokenAnswer> {
  const code = (await signIn()).searchParams.get('code')!;
  const response = await uiToken({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: VERIFIER });
  expect(response.status).toBe(200);
  return (await response.json()) as TokenAnswer;
}

beforeAll(async () => {
  idp = await startIdpHarness({
    embedded: { redirectUris: [CONFIDENTIAL_REDIRECT], publicClient: { clientId: UI, redirectUris: [`${ORIGIN}/*`] } },
    oidc: { clientId: TEST_CLIENT_ID, otherClientIds: [UI] },
  });
  ada = await createRealmUser(
    idp.db,
    'loadplane',
    { username: 'ada', email: 'ada@example.com', realmRoles: ['user'], password: 'analytical-engine' },
    { passwordIterations: TEST_PASSWORD_ITERATIONS },
  );
}, HARNESS_TIMEOUT_MS);
afterAll(() => idp.stop(), HARNESS_TIMEOUT_MS);

describe('the public client signs in through the login page', () => {
  test('code + PKCE with no secret gives tokens for the UI that the API accepts', async () => {
    const location = await signIn();
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe('ui-state');
    const code = location.searchParams.get('code')!;
    const response = await uiToken({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: VERIFIER });
    expect(response.status).toBe(200);
    // A browser on the same origin reads it; nothing may keep it.
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as TokenAnswer;
    expect(decodeJwt(tokens.access_token)).toMatchObject({ azp: UI, sub: ada.id });
    expect(decodeJwt(tokens.id_token!)).toMatchObject({ aud: UI, nonce: 'ui-nonce' });
    expect(await idp.verifier.verify(tokens.access_token)).toMatchObject({ sub: ada.id, roles: ['user'] });
  });

  test('refresh with client_id alone; the confidential client cannot use the UI\'s refresh token', async () => {
    const tokens = await uiTokens();
    const refreshed = await uiToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const again = (await refreshed.json()) as TokenAnswer;
    expect(decodeJwt(again.access_token).azp).toBe(UI);
    const stolen = await idp.token({ grant_type: 'refresh_token', refresh_token: again.refresh_token });
    expect(stolen.status).toBe(400);
    expect((await stolen.json()).error).toBe('invalid_grant');
  });

  test('without PKCE there is no code, and a code needs its verifier', async () => {
    for (const overrides of [{ code_challenge: undefined }, { code_challenge_method: undefined }, { code_challenge_method: 'plain' }]) {
      const response = await idp.request(authorizeUrl({ code_challenge: 'x'.repeat(43), ...overrides }));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
    const code = (await signIn()).searchParams.get('code')!;
    const missing = await uiToken({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'invalid_grant', error_description: 'PKCE code verifier not specified' });
  });

  test('a redirect URI off the service\'s origin is refused with a page, never followed', async () => {
    for (const redirect of [
      'http://evil.example/signin-callback',
      'http://localhost:8080.evil.example/signin-callback',
      'http://localhost:8080@evil.example/signin-callback',
      'http://localhost:8081/signin-callback',
      'https://localhost:8080/signin-callback',
      `${ORIGIN}/a/../../evil`,
      CONFIDENTIAL_REDIRECT,
    ]) {
      const response = await idp.request(authorizeUrl({ code_challenge: await s256Challenge(VERIFIER), redirect_uri: redirect }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  test('no password grant for the public client (Keycloak: direct access grants off)', async () => {
    const response = await uiToken({ grant_type: 'password', username: 'ada', password: 'analytical-engine' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'unauthorized_client', error_description: 'Client not allowed for direct access grants' });
  });
});

describe('signing out of the UI', () => {
  test('id_token_hint or client_id lets the browser back to the same origin only', async () => {
    const tokens = await uiTokens();
    const target = `${ORIGIN}/signout-callback`;
    const foreign = await idp.request(`${OIDC}/logout?${new URLSearchParams({ client_id: UI, post_logout_redirect_uri: 'http://evil.example/' })}`);
    expect(foreign.status).toBe(400);
    const byClient = await idp.request(`${OIDC}/logout?${new URLSearchParams({ client_id: UI, post_logout_redirect_uri: target })}`);
    expect(byClient.status).toBe(302);
    expect(byClient.headers.get('location')).toBe(target);
    // The hint names the UI: the confidential client's redirect URIs do not apply, nor does another client_id.
    const mixed = await idp.request(
      `${OIDC}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token!, client_id: TEST_CLIENT_ID, post_logout_redirect_uri: target })}`,
    );
    expect(mixed.status).toBe(400);
    const byHint = await idp.request(
      `${OIDC}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: target, state: 's' })}`,
    );
    expect(byHint.status).toBe(302);
    expect(byHint.headers.get('location')).toBe(`${target}?state=s`);
    expect((await uiToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  test('back-channel logout (POST) with client_id and the refresh token', async () => {
    const tokens = await uiTokens();
    const response = await idp.request(`${OIDC}/logout`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: formBody({ client_id: UI, refresh_token: tokens.refresh_token }),
    });
    expect(response.status).toBe(204);
    expect((await uiToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });
});

describe('the confidential client is unchanged', () => {
  test('it still needs its secret, keeps its own redirect URIs and its password grant', async () => {
    const noSecret = await idp.token({ grant_type: 'password', client_id: TEST_CLIENT_ID, username: 'ada', password: 'analytical-engine' }, { withClient: false });
    expect(noSecret.status).toBe(401);
    const wrongSecret = await idp.token(
      { grant_type: 'password', client_id: TEST_CLIENT_ID, client_secret: 'wrong', username: 'ada', password: 'analytical-engine' },
      { withClient: false },
    );
    expect(wrongSecret.status).toBe(401);
    expect((await idp.login('ada', 'analytical-engine')).access_token).toBeString();
    const uiRedirect = await idp.request(authorizeUrl({ client_id: TEST_CLIENT_ID, code_challenge: await s256Challenge(VERIFIER) }));
    expect(uiRedirect.status).toBe(400);
    // Its code cannot be redeemed by the public client, which has no secret to prove it is the confidential one.
    const code = (await signIn({ client_id: TEST_CLIENT_ID, redirect_uri: CONFIDENTIAL_REDIRECT })).searchParams.get('code')!;
    const asUi = await uiToken({ grant_type: 'authorization_code', code, redirect_uri: CONFIDENTIAL_REDIRECT, code_verifier: VERIFIER });
    expect(asUi.status).toBe(400);
  });

  test('a verifier that knows only the confidential client refuses the UI\'s tokens', async () => {
    // The same signing key (data files), so only the client can make the difference.
    const strict = await startIdpHarness({
      files: idp.files,
      embedded: { publicClient: { clientId: UI, redirectUris: [`${ORIGIN}/*`] } },
      oidc: { clientId: TEST_CLIENT_ID },
    });
    try {
      const { access_token } = await uiTokens();
      await expect(strict.verifier.verify(access_token)).rejects.toThrow('access token was issued to another client');
    } finally {
      await strict.stop();
    }
  });
});
