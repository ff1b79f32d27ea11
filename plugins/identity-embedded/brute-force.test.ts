/**
 * Brute-force detection in the provider: counted before hashing even under concurrency, unknown names alike, admin API,
 * busy hashing; the address throttle refuses only the names that failed from the address.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { type AttemptSubjects, createBruteForceProtector } from './brute-force-protector.ts';
import { type BruteForceSettings, BruteForceSchema } from './config.ts';
import { createLoginFailureStore } from './login-failures.ts';
import { passwordDerivationCount } from './password-hash.ts';
import { createRealmUser, type RealmUser } from './realm-users.ts';
import { HARNESS_TIMEOUT_MS, type IdpHarness, startIdpHarness, TEST_PASSWORD_ITERATIONS } from './test-kernel.ts';

let idp: IdpHarness;
let adminToken: string;
let grace: RealmUser;

const attack = '/auth/admin/realms/loadplane/attack-detection/brute-force/users';
const admin = (path: string, method = 'GET') => idp.request(path, { method, headers: { authorization: `Bearer ${adminToken}` } });
const guess = (username: string, password: string) => idp.token({ grant_type: 'password', username, password });

beforeAll(async () => {
  idp = await startIdpHarness({ oidc: false, embedded: { bootstrapAdmin: { username: 'admin', password: 'admin-password' } } });
  adminToken = (await idp.login('admin', 'admin-password')).access_token;
  grace = await createRealmUser(idp.db, 'loadplane', { username: 'grace', email: 'grace@example.test', password: 'compiler' }, {
    passwordIterations: TEST_PASSWORD_ITERATIONS,
  });
}, HARNESS_TIMEOUT_MS);

afterAll(() => idp?.stop());

describe('account lockout', () => {
  test('20 guesses at once: exactly 10 are hashed, the rest refused as locked', async () => {
    const before = passwordDerivationCount();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => guess('grace', `wrong-${index}`)));
    const bodies = await Promise.all(answers.map(async (answer) => [answer.status, (await answer.json()).error_description]));
    expect(passwordDerivationCount() - before).toBe(10);
    expect(bodies.filter(([status]) => status === 401)).toHaveLength(10);
    expect(bodies.filter(([status, text]) => status === 400 && text === 'Account temporarily disabled')).toHaveLength(10);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
  });

  test('locked whichever name is typed: username, other case, e-mail; the right password too', async () => {
    const before = passwordDerivationCount();
    for (const name of ['grace', 'GRACE', 'grace@example.test']) {
      const answer = await guess(name, 'compiler');
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 'invalid_grant', error_description: 'Account temporarily disabled' });
    }
    expect(passwordDerivationCount()).toBe(before);
  });

  test('the admin API shows the state and clears it; the right password then works and resets the count', async () => {
    const state = await (await admin(`${attack}/${grace.id}`)).json();
    expect(state).toEqual({ numFailures: 10, disabled: true, lastIPFailure: 'n/a', lastFailure: expect.any(Number) });
    expect((await admin(`${attack}/${grace.id}`, 'DELETE')).status).toBe(204);
    expect(await (await admin(`${attack}/${grace.id}`)).json()).toEqual({ numFailures: 0, disabled: false, lastIPFailure: 'n/a', lastFailure: 0 });
    expect((await guess('grace', 'wrong')).status).toBe(401);
    expect((await guess('grace', 'compiler')).status).toBe(200);
    // A success starts the count over, as in Keycloak.
    expect((await (await admin(`${attack}/${grace.id}`)).json()).numFailures).toBe(0);
    // Only admins may look.
    const own = (await idp.login('grace', 'compiler')).access_token;
    const forbidden = await idp.request(`${attack}/${grace.id}`, { headers: { authorization: `Bearer ${own}` } });
    expect(forbidden.status).toBe(403);
  });

  test('a name nobody has locks the same way, so a lockout tells nothing about which names exist', async () => {
    for (let index = 0; index < 10; index++) expect((await guess('no-such-user', `guess-${index}`)).status).toBe(401);
    const before = passwordDerivationCount();
    const locked = await guess('No-Such-User', 'guess-10');
    expect(locked.status).toBe(400);
    expect(await locked.json()).toEqual({ error: 'invalid_grant', error_description: 'Account temporarily disabled' });
    expect(passwordDerivationCount()).toBe(before);
    // Its name is logged nowhere: it could be a password typed into the wrong field.
    expect(JSON.stringify(idp.logs)).not.toContain('no-such-user');
    expect(idp.logs.some((entry) => entry.message === 'sign-in locked for an account' && entry.fields?.username === null)).toBe(true);
    expect((await admin(attack, 'DELETE')).status).toBe(204);
    expect((await guess('no-such-user', 'guess-11')).status).toBe(401);
  });
});

describe('bounded hashing', () => {
  let busy: IdpHarness;
  beforeAll(async () => {
    busy = await startIdpHarness({
      oidc: false,
      embedded: {
        // 200000 rounds: each check holds the one slot long enough for the others to find it taken.
        passwordIterations: 200_000,
        bruteForce: { maxConcurrentPasswordHashes: 1, passwordHashQueueLength: 0 },
      },
    });
    await createRealmUser(busy.db, 'loadplane', { username: 'ada', password: 'engine' }, { passwordIterations: 200_000 });
  }, HARNESS_TIMEOUT_MS);
  afterAll(() => busy?.stop());

  test('sign-ins beyond the bound are answered 503 with Retry-After, and are not counted as failures', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => busy.token({ grant_type: 'password', username: 'ada', password: 'not-engine' })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([401, 503, 503, 503]);
    const refused = answers.find((answer) => answer.status === 503)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Too many logins in progress; try again shortly' });
    // Only the one checked guess counted: nine more wrong ones are still answered, the tenth locks.
    for (let index = 0; index < 9; index++) {
      expect((await busy.token({ grant_type: 'password', username: 'ada', password: `no-${index}` })).status).toBe(401);
    }
    expect((await busy.token({ grant_type: 'password', username: 'ada', password: 'engine' })).status).toBe(400);
  }, HARNESS_TIMEOUT_MS);
});

describe('address throttle', () => {
  // The protector over the real table, with a clock of its own; the realm keeps these rows apart from the tests above.
  const realm = 'throttle';
  const settings = Value.Default(BruteForceSchema, {}) as BruteForceSettings;
  let clock = Date.UTC(2026, 10, 27);
  const store = () => createLoginFailureStore(idp.db, realm);
  const protector = () => createBruteForceProtector({ settings, store: store(), audit: { record: async () => {} }, now: () => new Date(clock) });
  const users = new Map<string, string>();
  const subjects = (name: string, address: string | null): AttemptSubjects => {
    const userId = users.get(name) ?? null;
    return { account: { userId, username: userId ? name : null, name }, address };
  };
  /** One sign-in: refused (its subject), or admitted and then right or wrong. */
  async function signIn(name: string, address: string | null, right: boolean) {
    clock += 1000;
    const admission = await protector().begin(subjects(name, address));
    if (!admission.admitted) return admission.subject;
    await (right ? protector().succeeded(admission.attempt) : protector().failed(admission.attempt));
    return right ? 'signed in' : 'wrong';
  }
  async function spray(address: string, prefix: string) {
    for (let attempt = 1; attempt <= settings.addressFailureFactor; attempt++) expect(await signIn(`${prefix}-${attempt}`, address, false)).toBe('wrong');
  }

  beforeAll(async () => {
    for (const username of ['ada', 'linus', 'ken']) {
      users.set(username, (await createRealmUser(idp.db, realm, { username, password: 'unused' }, { passwordIterations: TEST_PASSWORD_ITERATIONS })).id);
    }
  });

  test('past the factor an address refuses the names that failed from it, and lets in every other name', async () => {
    // ada mistyped once from loopback before the attack; linus never did.
    expect(await signIn('ada', '127.0.0.1', false)).toBe('wrong');
    await spray('127.0.0.1', 'sprayed');
    // The sprayer's names are refused before any check, whether anybody has them or not...
    expect(await signIn('sprayed-3', '127.0.0.1', false)).toBe('address');
    expect(await signIn('SPRAYED-3', '127.0.0.1', true)).toBe('address');
    expect(await signIn('ada', '127.0.0.1', true)).toBe('address');
    // ...but a name that has not failed from there has its password checked: right signs in, wrong counts.
    expect(await signIn('linus', '127.0.0.1', true)).toBe('signed in');
    expect(await signIn('never-seen', '127.0.0.1', false)).toBe('wrong');
    expect(await signIn('never-seen', '127.0.0.1', false)).toBe('address');
    // Elsewhere nothing is throttled: ada signs in from another address and from in-process.
    expect(await signIn('ada', '10.0.0.7', true)).toBe('signed in');
    expect(await signIn('ada', null, true)).toBe('signed in');
  });

  test('a success from the address clears that name there; the admin API clears a user\'s failures from every address', async () => {
    clock += 2 * settings.maxDeltaTimeSeconds * 1000;
    // ken fails once from 10.0.0.9, then signs in there: his slate there is clean before the throttle comes.
    expect(await signIn('ken', '10.0.0.9', false)).toBe('wrong');
    expect(await signIn('ken', '10.0.0.9', true)).toBe('signed in');
    expect(await signIn('linus', '10.0.0.9', false)).toBe('wrong');
    await spray('10.0.0.9', 'more');
    expect(await signIn('ken', '10.0.0.9', true)).toBe('signed in');
    expect(await signIn('linus', '10.0.0.9', true)).toBe('address');
    // What the attack-detection DELETE does for a user (its own account and its name from any address).
    await store().clearForUser(users.get('linus')!);
    expect(await signIn('linus', '10.0.0.9', true)).toBe('signed in');
  });

  test('the throttle ends with its wait; the names that failed then have their password checked again', async () => {
    clock += 2 * settings.maxDeltaTimeSeconds * 1000;
    await spray('10.0.0.8', 'later');
    expect(await signIn('later-1', '10.0.0.8', false)).toBe('address');
    clock += settings.waitIncrementSeconds * 1000;
    expect(await signIn('later-1', '10.0.0.8', false)).toBe('wrong');
  });
});
