/** The admin API under /auth/admin/realms/{realm}/users: access rules, Keycloak's shapes and the user life cycle. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createRealmUser } from './realm-users.ts';
import {
  HARNESS_TIMEOUT_MS,
  type IdpHarness,
  startIdpHarness,
  TEST_BASE_URL,
  TEST_PASSWORD_ITERATIONS,
} from './test-kernel.ts';

const USERS = '/auth/admin/realms/loadplane/users';
let idp: IdpHarness;
let adminToken: string;
let userToken: string;

const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  idp.request(path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
const admin = (method: string, path: string, body?: unknown) => call(method, path, adminToken, body);

beforeAll(async () => {
  idp = await startIdpHarness({ oidc: false, embedded: { bootstrapAdmin: { username: 'root', password: 'root-password' } } });
  await createRealmUser(
    idp.db,
    'loadplane',
    { username: 'plain', password: 'plain-password', realmRoles: ['user'] },
    { passwordIterations: TEST_PASSWORD_ITERATIONS },
  );
  adminToken = (await idp.login('root', 'root-password')).access_token;
  userToken = (await idp.login('plain', 'plain-password')).access_token;
}, HARNESS_TIMEOUT_MS);
afterAll(() => idp.stop(), HARNESS_TIMEOUT_MS);

describe('access', () => {
  test('401 without a valid bearer token, on every route', async () => {
    for (const [method, path] of [
      ['GET', USERS],
      ['POST', USERS],
      ['GET', `${USERS}/count`],
      ['GET', `${USERS}/00000000-0000-0000-0000-000000000000`],
      ['DELETE', `${USERS}/00000000-0000-0000-0000-000000000000`],
      ['PUT', `${USERS}/00000000-0000-0000-0000-000000000000/reset-password`],
    ]) {
      for (const token of [undefined, 'garbage']) {
        const response = await call(method!, path!, token, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ error: 'HTTP 401 Unauthorized' });
      }
    }
  });

  test('403 for a valid token without the realm role admin', async () => {
    const response = await call('GET', USERS, userToken);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'HTTP 403 Forbidden' });
    expect((await call('POST', USERS, userToken, { username: 'sneaky' })).status).toBe(403);
  });
});

describe('users', () => {
  test('POST creates a user: 201 with Location, then sign-in with its credential', async () => {
    const response = await admin('POST', USERS, {
      username: 'Carol',
      email: 'carol@example.com',
      firstName: 'Carol',
      lastName: 'Danvers',
      enabled: true,
      credentials: [{ type: 'password', value: 'carol-password', temporary: false }],
    });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${TEST_BASE_URL}/admin/realms/loadplane/users/[0-9a-f-]{36}$`));
    expect(await response.text()).toBe('');

    const fetched = await admin('GET', new URL(location).pathname);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toMatchObject({
      id: location.split('/').pop(),
      username: 'carol',
      email: 'carol@example.com',
      firstName: 'Carol',
      lastName: 'Danvers',
      enabled: true,
      emailVerified: false,
      createdTimestamp: expect.any(Number),
      requiredActions: [],
      realmRoles: [],
    });
    const tokens = await idp.login('carol', 'carol-password');
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  test('duplicate username (any case) or e-mail: 409 as Keycloak', async () => {
    const first = await admin('POST', USERS, { username: 'dup', email: 'dup@example.com', enabled: true });
    expect(first.status).toBe(201);
    const sameName = await admin('POST', USERS, { username: 'DUP', enabled: true });
    expect(sameName.status).toBe(409);
    expect(await sameName.json()).toEqual({ errorMessage: 'User exists with same username' });
    const sameEmail = await admin('POST', USERS, { username: 'dup2', email: 'DUP@example.com' });
    expect(sameEmail.status).toBe(409);
    expect(await sameEmail.json()).toEqual({ errorMessage: 'User exists with same email' });
  });

  test('invalid representations: 400, 415', async () => {
    expect((await admin('POST', USERS, { email: 'x@example.com' })).status).toBe(400);
    expect((await admin('POST', USERS, { username: 'bad name' })).status).toBe(400);
    expect((await admin('POST', USERS, { username: 'x', enabled: 'yes' })).status).toBe(400);
    expect((await admin('POST', USERS, { username: 'x', credentials: [{ type: 'otp', value: '1' }] })).status).toBe(400);
    expect((await admin('POST', USERS, '{not json')).status).toBe(400);
    const form = await idp.request(USERS, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=x',
    });
    expect(form.status).toBe(415);
  });

  test('as in Keycloak, a user is created disabled unless enabled is true', async () => {
    const response = await admin('POST', USERS, { username: 'dormant', credentials: [{ type: 'password', value: 'dormant-pw' }] });
    expect(response.status).toBe(201);
    const user = await (await admin('GET', new URL(response.headers.get('location')!).pathname)).json();
    expect(user.enabled).toBe(false);
    const login = await idp.token({ grant_type: 'password', username: 'dormant', password: 'dormant-pw' });
    expect(login.status).toBe(400);
    // PUT enables it.
    expect((await admin('PUT', `${USERS}/${user.id}`, { enabled: true })).status).toBe(204);
    expect((await idp.token({ grant_type: 'password', username: 'dormant', password: 'dormant-pw' })).status).toBe(200);
  });

  test('GET lists with Keycloak filters', async () => {
    for (const username of ['zed-one', 'zed-two', 'xzed']) {
      expect((await admin('POST', USERS, { username, email: `${username}@zed.example`, enabled: true })).status).toBe(201);
    }
    const names = async (query: string) =>
      ((await (await admin('GET', `${USERS}${query}`)).json()) as { username: string }[]).map((user) => user.username);

    expect(await names('')).toEqual(expect.arrayContaining(['root', 'plain', 'zed-one', 'zed-two', 'xzed']));
    expect(await names('?username=zed')).toEqual(['xzed', 'zed-one', 'zed-two']);
    expect(await names('?username=ZED-ONE&exact=true')).toEqual(['zed-one']);
    expect(await names('?username=zed&exact=true')).toEqual([]);
    expect(await names('?search=zed')).toEqual(['zed-one', 'zed-two']);
    expect(await names('?search=*zed*')).toEqual(['xzed', 'zed-one', 'zed-two']);
    expect(await names('?search=%22xzed%22')).toEqual(['xzed']);
    expect(await names('?email=xzed@zed.example&exact=true')).toEqual(['xzed']);
    expect(await names('?search=zed&first=1&max=1')).toEqual(['zed-two']);
    // LIKE wildcards in input are literal.
    expect(await names('?username=%25')).toEqual([]);
    expect(await (await admin('GET', `${USERS}/count?search=*zed*`)).json()).toBe(3);
  });

  test('GET /{id} of an unknown or malformed id: 404', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      const response = await admin('GET', `${USERS}/${id}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'User not found' });
    }
  });

  test('reset-password replaces the password: the new one signs in, the old one does not', async () => {
    const created = await admin('POST', USERS, {
      username: 'dave',
      enabled: true,
      credentials: [{ type: 'password', value: 'old-password' }],
    });
    const path = new URL(created.headers.get('location')!).pathname;
    const reset = await admin('PUT', `${path}/reset-password`, { type: 'password', value: 'new-password', temporary: false });
    expect(reset.status).toBe(204);
    expect((await idp.token({ grant_type: 'password', username: 'dave', password: 'old-password' })).status).toBe(401);
    expect((await idp.token({ grant_type: 'password', username: 'dave', password: 'new-password' })).status).toBe(200);

    expect((await admin('PUT', `${path}/reset-password`, { type: 'password' })).status).toBe(400);
    expect((await admin('PUT', `${USERS}/00000000-0000-0000-0000-000000000000/reset-password`, { value: 'x' })).status).toBe(404);

    // A temporary password must be changed before the password grant accepts it, as in Keycloak.
    expect((await admin('PUT', `${path}/reset-password`, { value: 'temp-password', temporary: true })).status).toBe(204);
    expect((await idp.token({ grant_type: 'password', username: 'dave', password: 'temp-password' })).status).toBe(400);
  });

  test('DELETE removes the user and ends their sessions', async () => {
    const created = await admin('POST', USERS, {
      username: 'erin',
      enabled: true,
      credentials: [{ type: 'password', value: 'erin-password' }],
    });
    const path = new URL(created.headers.get('location')!).pathname;
    const tokens = await idp.login('erin', 'erin-password');
    expect((await admin('DELETE', path)).status).toBe(204);
    expect((await admin('GET', path)).status).toBe(404);
    expect((await admin('DELETE', path)).status).toBe(404);
    expect((await idp.token({ grant_type: 'password', username: 'erin', password: 'erin-password' })).status).toBe(401);
    expect((await idp.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  test('realm role mappings grant and revoke admin', async () => {
    const created = await admin('POST', USERS, {
      username: 'frank',
      enabled: true,
      credentials: [{ type: 'password', value: 'frank-password' }],
    });
    const path = new URL(created.headers.get('location')!).pathname;
    const token = async () => (await idp.login('frank', 'frank-password')).access_token;
    expect((await call('GET', USERS, await token())).status).toBe(403);

    expect((await admin('POST', `${path}/role-mappings/realm`, [{ name: 'admin' }])).status).toBe(204);
    const roles = await (await admin('GET', `${path}/role-mappings/realm`)).json();
    expect(roles).toEqual([{ id: 'admin', name: 'admin', composite: false, clientRole: false, containerId: 'loadplane' }]);
    const promoted = await token();
    expect((await call('GET', USERS, promoted)).status).toBe(200);

    expect((await admin('DELETE', `${path}/role-mappings/realm`, [{ name: 'admin' }])).status).toBe(204);
    // The role is checked against the user as they are now, not as the token remembers them.
    expect((await call('GET', USERS, promoted)).status).toBe(403);
  });
});
