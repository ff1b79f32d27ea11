/** The realm's OpenID Connect endpoints: discovery, JWKS, the password and refresh grants, userinfo and logout. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createRealmUser, type RealmUser } from './realm-users.ts';
import {
  FORM_HEADERS,
  formBody,
  type IdpHarness,
  HARNESS_TIMEOUT_MS,
  startIdpHarness,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_ISSUER,
  TEST_PASSWORD_ITERATIONS,
} from './test-kernel.ts';

const OIDC = '/auth/realms/loadplane/protocol/openid-connect';
let idp: IdpHarness;
let alice: RealmUser;

const basic = (id: string, secret: string) =>
  `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

beforeAll(async () => {
  idp = await startIdpHarness({ oidc: false });
  const options = { passwordIterations: TEST_PASSWORD_ITERATIONS };
  alice = await createRealmUser(
    idp.db,
    'loadplane',
    {
      username: 'Alice',
      email: 'Alice@Example.com',
      emailVerified: true,
      firstName: 'Alice',
      lastName: 'Liddell',
      realmRoles: ['user'],
      password: 'wonderland',
    },
    options,
  );
  await createRealmUser(idp.db, 'loadplane', { username: 'disabled', enabled: false, password: 'pw-disabled' }, options);
  await createRealmUser(
    idp.db,
    'loadplane',
    { username: 'temporary', password: 'pw-temporary', passwordTemporary: true },
    options,
  );
  await createRealmUser(idp.db, 'loadplane', { username: 'nopassword' }, options);
}, HARNESS_TIMEOUT_MS);
afterAll(() => idp.stop(), HARNESS_TIMEOUT_MS);

describe('discovery and keys', () => {
  test('publishes OpenID Provider metadata with Keycloak paths', async () => {
    const response = await idp.request('/auth/realms/loadplane/.well-known/openid-configuration');
    expect(response.status).toBe(200);
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: TEST_ISSUER,
      authorization_endpoint: `${TEST_ISSUER}/protocol/openid-connect/auth`,
      token_endpoint: `${TEST_ISSUER}/protocol/openid-connect/token`,
      userinfo_endpoint: `${TEST_ISSUER}/protocol/openid-connect/userinfo`,
      end_session_endpoint: `${TEST_ISSUER}/protocol/openid-connect/logout`,
      jwks_uri: `${TEST_ISSUER}/protocol/openid-connect/certs`,
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['password', 'refresh_token']));
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
  });

  test('publishes the public key only', async () => {
    const response = await idp.request(`${OIDC}/certs`);
    expect(response.status).toBe(200);
    const { keys } = await response.json();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });

  test('the realm summary carries the same public key, as Keycloak\'s does', async () => {
    const response = await idp.request('/auth/realms/loadplane');
    expect(response.status).toBe(200);
    const info = await response.json();
    expect(info).toMatchObject({ realm: 'loadplane', 'token-service': `${TEST_ISSUER}/protocol/openid-connect` });
    const { keys } = await (await idp.request(`${OIDC}/certs`)).json();
    const der = Uint8Array.from(atob(info.public_key), (char) => char.charCodeAt(0));
    const imported = await crypto.subtle.importKey('spki', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']);
    expect((await crypto.subtle.exportKey('jwk', imported)).n).toBe(keys[0].n);
  });

  test('an unknown realm is a JSON 404 on every endpoint', async () => {
    for (const [path, method] of [
      ['/auth/realms/other', 'GET'],
      ['/auth/realms/other/.well-known/openid-configuration', 'GET'],
      ['/auth/realms/other/protocol/openid-connect/certs', 'GET'],
      ['/auth/realms/other/protocol/openid-connect/token', 'POST'],
      ['/auth/realms/other/protocol/openid-connect/userinfo', 'GET'],
      ['/auth/realms/other/protocol/openid-connect/logout', 'POST'],
      ['/auth/admin/realms/other/users', 'GET'],
    ] as const) {
      const response = await idp.request(path, { method, headers: FORM_HEADERS, body: method === 'POST' ? '' : undefined });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ error: 'Realm does not exist', error_description: 'Realm does not exist' });
    }
  });
});

describe('password grant', () => {
  test('client_secret_post: answers Keycloak\'s token response', async () => {
    const response = await idp.token({ grant_type: 'password', username: 'alice', password: 'wonderland' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      expires_in: 300,
      refresh_expires_in: 1800,
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      'not-before-policy': 0,
      session_state: expect.any(String),
      scope: 'profile email',
    });
    const header = decodeProtectedHeader(body.access_token);
    const { keys } = await (await idp.request(`${OIDC}/certs`)).json();
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: keys[0].kid });
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      iss: TEST_ISSUER,
      sub: alice.id,
      aud: 'account',
      azp: TEST_CLIENT_ID,
      typ: 'Bearer',
      sid: body.session_state,
      email: 'alice@example.com',
      email_verified: true,
      name: 'Alice Liddell',
      given_name: 'Alice',
      family_name: 'Liddell',
      preferred_username: 'alice',
      realm_access: { roles: ['user'] },
    });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.jti).toEqual(expect.any(String));
  });

  test('client_secret_basic (form-encoded credentials, RFC 6749 2.3.1)', async () => {
    const response = await idp.token(
      { grant_type: 'password', username: 'alice', password: 'wonderland' },
      { withClient: false, headers: { authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) } },
    );
    expect(response.status).toBe(200);
    expect(decodeJwt((await response.json()).access_token).sub).toBe(alice.id);
  });

  test('usernames are case-insensitive and the e-mail address works too', async () => {
    expect((await idp.token({ grant_type: 'password', username: 'ALICE', password: 'wonderland' })).status).toBe(200);
    expect(
      (await idp.token({ grant_type: 'password', username: 'alice@EXAMPLE.com', password: 'wonderland' })).status,
    ).toBe(200);
  });

  test('scope openid adds an ID token for the client', async () => {
    const response = await idp.token({ grant_type: 'password', username: 'alice', password: 'wonderland', scope: 'openid' });
    const body = await response.json();
    expect(body.scope).toBe('openid profile email');
    expect(decodeJwt(body.id_token)).toMatchObject({ iss: TEST_ISSUER, aud: TEST_CLIENT_ID, sub: alice.id, typ: 'ID' });
  });

  test('wrong password, unknown user, no password: 401 invalid_grant as Keycloak', async () => {
    const attempts: Record<string, string>[] = [
      { username: 'alice', password: 'wrong' },
      { username: 'nobody', password: 'wonderland' },
      { username: 'nopassword', password: '' },
      { username: 'alice' },
      {},
    ];
    for (const fields of attempts) {
      const response = await idp.token({ grant_type: 'password', ...fields });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });
    }
  });

  test('a disabled user or a temporary password is refused once the password is right', async () => {
    const disabled = await idp.token({ grant_type: 'password', username: 'disabled', password: 'pw-disabled' });
    expect(disabled.status).toBe(400);
    expect(await disabled.json()).toEqual({ error: 'invalid_grant', error_description: 'Account disabled' });
    const temporary = await idp.token({ grant_type: 'password', username: 'temporary', password: 'pw-temporary' });
    expect(temporary.status).toBe(400);
    expect((await temporary.json()).error_description).toBe('Account is not fully set up');
    // A wrong password still answers the generic message: no account oracle.
    const guess = await idp.token({ grant_type: 'password', username: 'disabled', password: 'guess' });
    expect(guess.status).toBe(401);
  });

  test('wrong client credentials: 401 invalid_client', async () => {
    const cases: [Record<string, string>, Record<string, string>?][] = [
      [{ client_id: TEST_CLIENT_ID, client_secret: 'wrong' }],
      [{ client_id: 'other', client_secret: TEST_CLIENT_SECRET }],
      [{ client_id: TEST_CLIENT_ID }],
      [{}],
      [{}, { authorization: basic(TEST_CLIENT_ID, 'wrong') }],
      [{}, { authorization: 'Basic !!!' }],
      [{ client_id: 'other' }, { authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) }],
    ];
    for (const [client, headers] of cases) {
      const response = await idp.token(
        { grant_type: 'password', username: 'alice', password: 'wonderland', ...client },
        { withClient: false, headers },
      );
      expect(response.status).toBe(401);
      expect((await response.json()).error).toBe('invalid_client');
      if (headers) expect(response.headers.get('www-authenticate')).toBe('Basic realm="loadplane"');
    }
  });

  test('malformed requests: 400 with an OAuth error', async () => {
    const post = (body: string, contentType = FORM_HEADERS['content-type']) =>
      idp.request(`${OIDC}/token`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const client = { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET };

    const missing = await post(formBody(client));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'Missing form parameter: grant_type' });

    const unsupported = await post(formBody({ ...client, grant_type: 'client_credentials' }));
    expect(unsupported.status).toBe(400);
    expect((await unsupported.json()).error).toBe('unsupported_grant_type');

    const json = await post(JSON.stringify({ ...client, grant_type: 'password' }), 'application/json');
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe('invalid_request');

    const duplicated = await post(`${formBody({ ...client, grant_type: 'password' })}&username=a&username=b`);
    expect(duplicated.status).toBe(400);
    expect((await duplicated.json()).error_description).toBe('duplicated parameter: username');
  });
});

describe('refresh, userinfo and logout', () => {
  const userinfo = (token?: string) =>
    idp.request(`${OIDC}/userinfo`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  test('userinfo answers the profile claims for a valid access token', async () => {
    const tokens = await idp.login('alice', 'wonderland');
    const response = await userinfo(tokens.access_token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sub: alice.id,
      email_verified: true,
      name: 'Alice Liddell',
      preferred_username: 'alice',
      given_name: 'Alice',
      family_name: 'Liddell',
      email: 'alice@example.com',
    });
    expect((await userinfo()).status).toBe(401);
    expect((await userinfo('not.a.token')).status).toBe(401);
    // A refresh token is not an access token.
    const wrongKind = await userinfo(tokens.refresh_token);
    expect(wrongKind.status).toBe(401);
    expect(await wrongKind.json()).toEqual({ error: 'invalid_token', error_description: 'Token verification failed' });
  });

  test('a refresh token gives new tokens of the same session until logout ends it', async () => {
    const tokens = await idp.login('alice', 'wonderland');
    const refreshed = await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json();
    expect(next.session_state).toBe(tokens.session_state);
    expect(decodeJwt(next.access_token)).toMatchObject({ sub: alice.id, sid: tokens.session_state });
    expect(next.access_token).not.toBe(tokens.access_token);

    const logout = await idp.request(`${OIDC}/logout`, {
      method: 'POST',
      headers: { ...FORM_HEADERS, authorization: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      body: formBody({ refresh_token: next.refresh_token }),
    });
    expect(logout.status).toBe(204);

    for (const refreshToken of [tokens.refresh_token, next.refresh_token]) {
      const after = await idp.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
      expect(after.status).toBe(400);
      expect(await after.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });
    }
    // The session's access tokens no longer open userinfo either.
    expect((await userinfo(next.access_token)).status).toBe(401);
    // Another session of the same user is untouched.
    const other = await idp.login('alice', 'wonderland');
    expect((await userinfo(other.access_token)).status).toBe(200);
  });

  test('logout needs the client and a refresh token of that client', async () => {
    const tokens = await idp.login('alice', 'wonderland');
    const logout = (fields: Record<string, string>) =>
      idp.request(`${OIDC}/logout`, { method: 'POST', headers: FORM_HEADERS, body: formBody(fields) });
    expect((await logout({ client_id: TEST_CLIENT_ID, client_secret: 'wrong', refresh_token: tokens.refresh_token })).status).toBe(401);
    expect((await logout({ client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET })).status).toBe(400);
    expect(
      (await logout({ client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, refresh_token: tokens.access_token })).status,
    ).toBe(400);
    // Still alive after the refused attempts.
    expect((await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(200);
  });

  test('garbage and access tokens are not refresh tokens', async () => {
    const tokens = await idp.login('alice', 'wonderland');
    for (const refreshToken of ['garbage', tokens.access_token]) {
      const response = await idp.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
    }
    const missing = await idp.token({ grant_type: 'refresh_token' });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('invalid_request');
  });
});
