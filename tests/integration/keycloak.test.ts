/** The real service against a real Keycloak (AUTH_URL set): Keycloak's tokens open the API and the embedded IdP stays unmounted. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { keycloakMissingReason, keycloakPasswordGrant, type KeycloakServer, startKeycloak } from '../helpers/keycloak-server.ts';
import { freePort, repoRoot, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';

// The realm file's confidential client and users (config/keycloak/loadplane-realm.json), as compose uses them.
const CLIENT_SECRET = 'loadplane-dev-secret-change-me';
const missing = keycloakMissingReason();
const ready = () => requireOrSkip(missing, 'the Keycloak suite');

let keycloak: KeycloakServer | null = null;
let service: ServiceProcess | null = null;
let dataDir = '';
let serviceEnv: Record<string, string> = {};

beforeAll(async () => {
  if (missing) return;
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-keycloak-'));
  const port = await freePort();
  serviceEnv = {
    AUTH_URL: `http://127.0.0.1:${port}`,
    AUTH_REALM: 'loadplane',
    AUTH_CLIENT_ID: 'loadplane',
    AUTH_CLIENT_SECRET: CLIENT_SECRET,
    BOOTSTRAP_ADMIN_USERNAME: 'admin',
    DATA_DIR: dataDir,
    LOCAL_AGENT: 'false',
  };
  // Both at once: the service fetches Keycloak's keys lazily at the first token, so it boots while Keycloak is down.
  const [started, booted] = await Promise.allSettled([startKeycloak({ port }), startServiceProcess({ env: serviceEnv })]);
  if (started.status === 'fulfilled') keycloak = started.value;
  if (booted.status === 'fulfilled') service = booted.value;
  if (started.status === 'rejected') throw started.reason;
  if (booted.status === 'rejected') throw booted.reason;
  if (!keycloak) throw new Error('Keycloak was found but did not start');
}, 300_000); // a cold Keycloak on a busy 2-core machine: its build step alone can take over a minute

afterAll(async () => {
  await service?.stop();
  await keycloak?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const tokenOf = async (username: string) =>
  (await keycloakPasswordGrant(keycloak!.url, { username, password: username, clientSecret: CLIENT_SECRET })).access_token;

function call(path: string, token: string | null, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${service!.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
const claimsOf = (jwt: string) =>
  JSON.parse(atob(jwt.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/'))) as Record<string, unknown>;

describe('service with AUTH_URL = Keycloak', () => {
  test('admin (BOOTSTRAP_ADMIN_USERNAME) owns the first workspace; demo gets one of its own', async () => {
    if (!ready()) return;
    const admin = await tokenOf('admin');
    const demo = await tokenOf('demo');
    // First test, demo first: a user who signs in before the bootstrap admin must not get the first workspace.
    const demoWorkspace = (await (await call('/api/v1/workspace', demo)).json()) as Record<string, unknown>;
    const adminWorkspace = (await (await call('/api/v1/workspace', admin)).json()) as Record<string, unknown>;
    expect(adminWorkspace).toMatchObject({ name: 'Default workspace', role: 'owner', plan: 'enterprise' });
    expect(demoWorkspace).toMatchObject({ role: 'owner', plan: 'enterprise' });
    expect(demoWorkspace.id).not.toBe(adminWorkspace.id);
    expect(demoWorkspace.name).not.toBe('Default workspace');
    // Not a member there: looks like it does not exist.
    const foreign = await call('/api/v1/machines', demo, { headers: { 'x-workspace-id': String(adminWorkspace.id) } });
    expect(foreign.status).toBe(404);
  });

  test('a Keycloak password-grant token is accepted: /auth/me carries its claims and realm roles', async () => {
    if (!ready()) return;
    const token = await tokenOf('admin');
    expect(claimsOf(token).iss).toBe(`${keycloak!.url}/realms/loadplane`);
    const response = await call('/api/v1/auth/me', token);
    expect(response.status).toBe(200);
    const me = (await response.json()) as { sub: string; roles: string[] };
    expect(me).toMatchObject({ sub: claimsOf(token).sub, preferred_username: 'admin', email: 'admin@example.com', name: 'Ada Admin' });
    // The realm file fixes the users' ids: a re-created Keycloak gives admin the same `sub`, and so its workspace.
    const realmAdmin = (JSON.parse(readFileSync(join(repoRoot, 'config/keycloak/loadplane-realm.json'), 'utf8')) as { users: { id: string; username: string }[] }).users.find(
      (user) => user.username === 'admin',
    )!;
    expect(me.sub).toBe(realmAdmin.id);
    expect(me.roles).toEqual(expect.arrayContaining(['admin', 'user', 'default-roles-loadplane']));

    const demo = (await (await call('/api/v1/auth/me', await tokenOf('demo'))).json()) as { roles: string[] };
    expect(demo).toMatchObject({ preferred_username: 'demo', email: 'demo@example.com', name: 'Demo User' });
    expect(demo.roles).toContain('user');
    expect(demo.roles).not.toContain('admin');
  });

  test('the embedded identity provider is not mounted', async () => {
    if (!ready()) return;
    expect((await call('/auth/realms/loadplane/.well-known/openid-configuration', null)).status).toBe(404);
    expect((await call('/auth/realms/loadplane/protocol/openid-connect/certs', null)).status).toBe(404);
    const grant = await fetch(`${service!.url}/auth/realms/loadplane/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: 'loadplane', username: 'admin', password: 'admin' }),
    });
    expect(grant.status).toBe(404);
    expect((await call('/auth/admin/realms/loadplane/users', await tokenOf('admin'))).status).toBe(404);
  });

  test('machines and tests CRUD with a Keycloak token, isolated per workspace', async () => {
    if (!ready()) return;
    const admin = await tokenOf('admin');
    const machine = await call('/api/v1/machines', admin, {
      method: 'POST',
      json: { name: 'kc-gen', hostname: 'kc-gen-1.example.com', ip_address: '10.0.0.21', os: 'linux', cpu_cores: 4 },
    });
    expect(machine.status).toBe(201);
    const { id: machineId } = (await machine.json()) as { id: string };
    const machines = (await (await call('/api/v1/machines', admin)).json()) as { id: string }[];
    expect(machines.map((m) => m.id)).toContain(machineId);
    expect((await (await call('/api/v1/machines', await tokenOf('demo'))).json()) as unknown[]).toEqual([]);

    const created = await call('/api/v1/tests', admin, { method: 'POST', json: { name: 'kc smoke', tool: 'k6', script: 'export default function () {}' } });
    expect(created.status).toBe(201);
    const { id: testId } = (await created.json()) as { id: string };
    const patched = await call(`/api/v1/tests/${testId}`, admin, { method: 'PATCH', json: { status: 'active' } });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { status: string }).status).toBe('active');
    expect((await call(`/api/v1/tests/${testId}`, admin, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/api/v1/machines/${machineId}`, admin, { method: 'DELETE' })).status).toBe(204);
    expect((await (await call('/api/v1/tests', admin)).json()) as unknown[]).toEqual([]);
  });

  test('no token, a tampered token, refresh and ID tokens, and tokens of another issuer or client are 401', async () => {
    if (!ready()) return;
    const demo = await keycloakPasswordGrant(keycloak!.url, { username: 'demo', password: 'demo', clientSecret: CLIENT_SECRET });
    const [header, , signature] = demo.access_token.split('.');
    // Keycloak's own signature over a payload that now claims the admin role.
    const forged = { ...claimsOf(demo.access_token), realm_access: { roles: ['admin', 'user'] } };
    const tampered = `${header}.${base64url(JSON.stringify(forged))}.${signature}`;
    // The same Keycloak and keys, asked under another host name (as compose's users reach it, on localhost:8081):
    // `iss` names that host, not AUTH_URL, and the service must hold it to AUTH_URL's issuer.
    const credentials = { username: 'demo', password: 'demo', clientSecret: CLIENT_SECRET };
    const viaAlias = (await keycloakPasswordGrant(keycloak!.url, credentials, { host: 'localhost:8081' })).access_token;
    expect(claimsOf(viaAlias).iss).toBe('http://localhost:8081/realms/loadplane');
    // Another realm of the same Keycloak: another issuer and other signing keys.
    const master = await keycloakPasswordGrant(keycloak!.url, { ...keycloak!.masterAdmin, realm: 'master', clientId: 'admin-cli' });
    // The right realm and keys, but issued to another client: one made now through the admin API.
    const made = await fetch(`${keycloak!.url}/admin/realms/loadplane/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${master.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'other-app', publicClient: true, directAccessGrantsEnabled: true }),
    });
    expect(made.status).toBe(201);
    const otherClient = (await keycloakPasswordGrant(keycloak!.url, { username: 'demo', password: 'demo', clientId: 'other-app' })).access_token;
    expect(claimsOf(otherClient).azp).toBe('other-app');
    // The realm's built-in `admin-cli` issues lightweight access tokens: no `sub`, no roles, nothing to identify a user by.
    const noSubject = (await keycloakPasswordGrant(keycloak!.url, { username: 'demo', password: 'demo', clientId: 'admin-cli' })).access_token;

    // Each is refused for its own reason, not by accident (e.g. as malformed).
    const cases: [string, string | null, RegExp][] = [
      ['no token', null, /missing bearer token/],
      ['tampered', tampered, /signature is invalid/],
      // Keycloak signs refresh tokens with the realm's HMAC key: refused before any key lookup.
      ['refresh token', demo.refresh_token!, /algorithm is not allowed/],
      ['id token', demo.id_token!, /not an access token/],
      ['issuer under another host name', viaAlias, /"iss" claim/],
      ['another client', otherClient, /another client/],
      ['no subject', noSubject, /"sub" claim/],
      ['master realm', master.access_token, /unknown key|"iss" claim/],
    ];
    for (const [label, token, reason] of cases) {
      const response = await call('/api/v1/auth/me', token);
      const body = (await response.json()) as { error: string; message: string };
      expect({ label, status: response.status, error: body.error }).toEqual({ label, status: 401, error: 'unauthorized' });
      expect({ label, message: body.message }).toEqual({ label, message: expect.stringMatching(reason) });
    }
    // The untouched token of the same grant still works: the 401s above are about the tokens, not the service.
    expect((await call('/api/v1/auth/me', demo.access_token)).status).toBe(200);
  });

  test('an API token created with a Keycloak JWT works on its own', async () => {
    if (!ready()) return;
    const created = await call('/api/v1/api-tokens', await tokenOf('admin'), { method: 'POST', json: { name: 'kc-ci' } });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    expect(token).toMatch(/^psk_/);
    const me = await call('/api/v1/auth/me', token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { preferred_username: string }).preferred_username).toBe('admin');
    expect((await call('/api/v1/machines', token)).status).toBe(200);
  });

  test('AUTH_ISSUER: tokens name the public issuer while discovery goes through the back channel (as in compose)', async () => {
    if (!ready()) return;
    const publicDir = await mkdtemp(join(tmpdir(), 'loadplane-keycloak-issuer-'));
    const viaPublicName = await startServiceProcess({
      env: { ...serviceEnv, DATA_DIR: publicDir, AUTH_ISSUER: 'http://localhost:8081/realms/loadplane' },
    });
    try {
      const credentials = { username: 'demo', password: 'demo', clientSecret: CLIENT_SECRET };
      const publicToken = (await keycloakPasswordGrant(keycloak!.url, credentials, { host: 'localhost:8081' })).access_token;
      const backChannelToken = await tokenOf('demo');
      const me = await fetch(`${viaPublicName.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${publicToken}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { preferred_username: string }).preferred_username).toBe('demo');
      // A token naming the back-channel address is not one this service was told to trust.
      const other = await fetch(`${viaPublicName.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${backChannelToken}` } });
      expect(other.status).toBe(401);
    } finally {
      await viaPublicName.stop();
      await rm(publicDir, { recursive: true, force: true });
    }
  }, 60_000);

  // Last: it replaces the service process the other tests use.
  test('a Keycloak access token keeps working after the service restarts (keys fetched anew)', async () => {
    if (!ready()) return;
    const token = await tokenOf('admin');
    const before = (await (await call('/api/v1/workspace', token)).json()) as { id: string };
    // A clean exit (restart() insists on 0), then the same DATA_DIR and database.
    service = await service!.restart();
    // A fresh process has no keys and no verified-token cache: this verifies via discovery + JWKS again.
    const me = await call('/api/v1/auth/me', token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { preferred_username: string }).preferred_username).toBe('admin');
    const after = (await (await call('/api/v1/workspace', token)).json()) as { id: string; role: string };
    expect(after).toMatchObject({ id: before.id, role: 'owner' });
  }, 60_000);
});
