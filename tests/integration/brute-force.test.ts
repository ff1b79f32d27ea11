/**
 * Password guessing against the embedded identity provider, over real sockets: the 11th wrong password within a
 * minute is refused before any hashing, the right one too until the wait is over; one address spraying many names
 * is throttled for the names it tried, never for another user there; the login form says so; lockouts and throttles
 * land in the audit log; two replicas on one database share the count.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { LOCKOUT_ACTIONS, passwordDerivationCount } from '../../plugins/identity-embedded/index.ts';
import { s256Challenge } from '../../plugins/identity-embedded/pkce.ts';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { freePort } from '../helpers/service-process.ts';
import { adminPassword, startTestService, type TestService } from '../helpers/test-service.ts';

const REALM = 'loadplane';
const USER_PASSWORD = 'password-for-tests';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function start(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const service = await startTestService({ port: await freePort(), ...options });
  cleanups.push(() => service.stop());
  await service.listen();
  return service;
}

/** The password grant over the real socket, as a client on this machine sends it (through a proxy: `forwardedFor`). */
function passwordGrant(service: TestService, username: string, password: string, forwardedFor?: string): Promise<Response> {
  return fetch(`${service.url}/auth/realms/${REALM}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: service.service.clientId,
      client_secret: service.service.clientSecret,
      username,
      password,
    }),
  });
}

/** Clears every lockout of the realm through Keycloak's attack-detection API (the admin signs in in-process). */
async function clearLockouts(service: TestService): Promise<void> {
  const token = await service.tokenFor('admin', adminPassword);
  const answer = await fetch(`${service.url}/auth/admin/realms/${REALM}/attack-detection/brute-force/users`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(204);
}

interface AuditView {
  action: string;
  actor: { type: string; label: string | null };
  target: { type: string; id: string | null; label: string | null };
  details: Record<string, unknown>;
}

async function auditLog(service: TestService): Promise<AuditView[]> {
  const token = await service.tokenFor('admin', adminPassword);
  const answer = await fetch(`${service.url}/api/v1/audit-log`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as AuditView[];
}

describe('default limits', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await start();
    await service.createUser('victim');
    await service.createUser('formuser');
  }, 60_000);

  test('the 11th wrong password within a minute is refused before any hashing, and so is the right one', async () => {
    const before = passwordDerivationCount();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const answer = await passwordGrant(service, 'victim', `wrong-${attempt}`);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });
    }
    expect(passwordDerivationCount() - before).toBe(10);

    const eleventh = await passwordGrant(service, 'victim', 'wrong-11');
    expect(eleventh.status).toBe(400);
    expect(await eleventh.json()).toEqual({ error: 'invalid_grant', error_description: 'Account temporarily disabled' });
    const retryAfter = Number(eleventh.headers.get('retry-after'));
    // The lock runs a minute from the 10th failure: whatever time the machine took since, some of it is left.
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const right = await passwordGrant(service, 'victim', USER_PASSWORD);
    expect(right.status).toBe(400);
    expect(passwordDerivationCount() - before).toBe(10);
  });

  test('the lockout is in the audit log of the first workspace, with the address it came from', async () => {
    const entries = (await auditLog(service)).filter((entry) => entry.action === LOCKOUT_ACTIONS.account);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'system', label: 'brute-force detection' },
      target: { type: 'user', id: expect.any(String), label: 'victim' },
      details: { realm: REALM, address: '127.0.0.1', failures: 10, wait_seconds: 60, permanent: false, locked_until: expect.any(String) },
    });
  });

  test('the login form shows the lockout instead of signing in', async () => {
    await clearLockouts(service);
    const auth = `${service.url}/auth/realms/${REALM}/protocol/openid-connect/auth`;
    const query = new URLSearchParams({
      client_id: service.service.clientId,
      redirect_uri: `${service.url}/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      code_challenge: await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      state: 'st',
    });
    const page = await fetch(`${auth}?${query}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const loginState = /name="login_state" value="([^"]+)"/.exec(await page.text())![1]!;
    const submit = (password: string) =>
      fetch(auth, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ login_state: loginState, username: 'formuser', password }),
      });

    for (let attempt = 1; attempt <= 10; attempt++) {
      const answer = await submit(`wrong-${attempt}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('Invalid username or password.');
    }
    const before = passwordDerivationCount();
    const locked = await submit(USER_PASSWORD);
    expect(locked.status).toBe(200);
    expect(locked.headers.get('location')).toBeNull();
    const html = await locked.text();
    expect(html).toContain('role="alert">Account is temporarily disabled after too many failed sign-ins; try again in 1 minute.');
    expect(passwordDerivationCount()).toBe(before);
  });

  test('one address guessing across many names is throttled (429 with Retry-After) for those names, not for another user', async () => {
    await clearLockouts(service);
    for (let attempt = 1; attempt <= 30; attempt++) {
      // Each name fails once: no account comes near its own limit.
      expect((await passwordGrant(service, `sprayed-${attempt}`, 'Winter2026!')).status).toBe(401);
    }
    const before = passwordDerivationCount();
    for (const name of ['sprayed-1', 'SPRAYED-30']) {
      const next = await passwordGrant(service, name, 'Summer2026!');
      expect(next.status).toBe(429);
      expect(await next.json()).toEqual({
        error: 'invalid_grant',
        error_description: 'Too many failed logins from this address; try again later',
      });
      expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(50);
    }
    expect(passwordDerivationCount()).toBe(before);
    // Another user on the same address (the admin's browser, the same NAT) still signs in: their password is checked.
    const other = await passwordGrant(service, 'formuser', USER_PASSWORD);
    expect(other.status).toBe(200);
    // A new name is checked too, and its failure counts for it: once, then it is throttled like the others.
    expect((await passwordGrant(service, 'sprayed-31', 'Winter2026!')).status).toBe(401);
    expect((await passwordGrant(service, 'sprayed-31', 'Winter2026!')).status).toBe(429);

    // One entry when the throttle started, not one per guess it let through.
    const entries = (await auditLog(service)).filter((entry) => entry.action === LOCKOUT_ACTIONS.address);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      target: { type: 'client_address', id: null, label: '127.0.0.1' },
      details: { address: '127.0.0.1', failures: 30, wait_seconds: 60 },
    });
    // The sprayed names, which nobody has, are in no audit entry.
    expect(JSON.stringify(await auditLog(service))).not.toContain('sprayed-');
    await clearLockouts(service);
  });
});

test('the right password is refused during the lockout and works once the wait is over', async () => {
  // A short wait so the test can sit it out; the counting is the default one.
  const service = await start({ pluginConfig: { 'identity-embedded': { bruteForce: { waitIncrementSeconds: 2 } } } });
  await service.createUser('patient');
  for (let attempt = 1; attempt <= 10; attempt++) expect((await passwordGrant(service, 'patient', `wrong-${attempt}`)).status).toBe(401);
  const during = await passwordGrant(service, 'patient', USER_PASSWORD);
  expect(during.status).toBe(400);
  const wait = Number(during.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(2);
  await Bun.sleep(wait * 1000 + 100);
  const after = await passwordGrant(service, 'patient', USER_PASSWORD);
  expect(after.status).toBe(200);
  expect(((await after.json()) as { access_token: string }).access_token).toBeString();
  // The success reset the count: a wrong password is an ordinary failure again, not a lockout.
  expect((await passwordGrant(service, 'patient', 'wrong-again')).status).toBe(401);
}, 60_000);

test('two replicas on one PostgreSQL database count the same failures and honour the same lockout', async () => {
  const postgres = await postgresOrSkip();
  if (!postgres) return;
  cleanups.push(() => postgres.stop());
  const a = await start({ database: postgres.url });
  const b = await start({ database: postgres.url });
  await a.createUser('shared');
  // Five guesses on each replica: ten in all, so the account is locked on both.
  for (let attempt = 1; attempt <= 5; attempt++) {
    expect((await passwordGrant(a, 'shared', `a-${attempt}`)).status).toBe(401);
    expect((await passwordGrant(b, 'shared', `b-${attempt}`)).status).toBe(401);
  }
  const before = passwordDerivationCount();
  for (const replica of [a, b]) {
    const answer = await passwordGrant(replica, 'shared', USER_PASSWORD);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid_grant', error_description: 'Account temporarily disabled' });
  }
  expect(passwordDerivationCount()).toBe(before);
  // Cleared on B, free on A.
  await clearLockouts(b);
  expect((await passwordGrant(a, 'shared', USER_PASSWORD)).status).toBe(200);
}, 120_000);

describe('behind a reverse proxy (TRUSTED_PROXIES)', () => {
  /** Sprays 30 wrong passwords over as many names, as the client `forwardedFor` names. */
  async function spray(service: TestService, forwardedFor: string) {
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect((await passwordGrant(service, `proxied-${attempt}`, 'Winter2026!', forwardedFor)).status).toBe(401);
    }
  }

  test('each client behind a trusted proxy has its own address throttle', async () => {
    const service = await start({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
    await service.createUser('proxied-user');
    await spray(service, '198.51.100.1');
    expect((await passwordGrant(service, 'proxied-1', 'Winter2026!', '198.51.100.1')).status).toBe(429);
    // The same name from another client through the same proxy is checked; the throttled client cannot escape by
    // writing its own header first.
    expect((await passwordGrant(service, 'proxied-1', 'Winter2026!', '198.51.100.2')).status).toBe(401);
    expect((await passwordGrant(service, 'proxied-1', 'Winter2026!', '203.0.113.5, 198.51.100.1')).status).toBe(429);
    // A user who never failed from the throttled client signs in from it.
    expect((await passwordGrant(service, 'proxied-user', USER_PASSWORD, '198.51.100.1')).status).toBe(200);
    const entries = (await auditLog(service)).filter((entry) => entry.action === LOCKOUT_ACTIONS.address);
    expect(entries.map((entry) => entry.target.label)).toEqual(['198.51.100.1']);
  });

  test('without TRUSTED_PROXIES the header is ignored: a client cannot pick a fresh address per guess', async () => {
    const service = await start();
    await service.createUser('proxied-user');
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect((await passwordGrant(service, `proxied-${attempt}`, 'Winter2026!', `198.51.100.${attempt}`)).status).toBe(401);
    }
    expect((await passwordGrant(service, 'proxied-1', 'Winter2026!', '198.51.100.200')).status).toBe(429);
    expect((await passwordGrant(service, 'proxied-user', USER_PASSWORD, '198.51.100.200')).status).toBe(200);
  });
});
