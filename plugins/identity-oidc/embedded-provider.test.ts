/** identity-oidc against the embedded provider, both in one kernel, the verifier fetching through the outbound port. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { importJWK, SignJWT } from 'jose';
import { DomainError } from 'loadplane/plugin';
import { REALM_KEY_FILE } from '../identity-embedded/realm-key.ts';
import { createRealmUser, type RealmUser } from '../identity-embedded/realm-users.ts';
import {
  type IdpHarness,
  HARNESS_TIMEOUT_MS,
  startIdpHarness,
  TEST_ISSUER,
  TEST_PASSWORD_ITERATIONS,
} from '../identity-embedded/test-kernel.ts';

let idp: IdpHarness;
let grace: RealmUser;

/** Signs with the realm's own private key, as only the provider could: for claims the endpoints never issue. */
async function signAsRealm(claims: Record<string, unknown>): Promise<string> {
  const stored = JSON.parse((await idp.files.read(REALM_KEY_FILE))!);
  const key = await importJWK(stored.privateJwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: TEST_ISSUER, sub: grace.id, typ: 'Bearer', iat: now, exp: now + 300, ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: stored.kid })
    .sign(key);
}

async function refusal(token: string): Promise<DomainError> {
  try {
    await idp.verifier.verify(token);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('token was accepted');
}

beforeAll(async () => {
  idp = await startIdpHarness({ oidc: { clientId: 'loadplane' } });
  grace = await createRealmUser(
    idp.db,
    'loadplane',
    {
      username: 'grace',
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      realmRoles: ['admin', 'user'],
      password: 'cobol-rules',
    },
    { passwordIterations: TEST_PASSWORD_ITERATIONS },
  );
}, HARNESS_TIMEOUT_MS);
afterAll(() => idp.stop(), HARNESS_TIMEOUT_MS);

describe('identity-oidc with the embedded provider', () => {
  test('a password-grant token verifies with the right claims; discovery and JWKS are fetched once', async () => {
    expect(idp.fetched).toEqual([]);
    const tokens = await idp.login('grace', 'cobol-rules');
    const identity = await idp.verifier.verify(tokens.access_token);
    expect(identity).toEqual({
      sub: grace.id,
      email: 'grace@example.com',
      email_verified: false,
      name: 'Grace Hopper',
      preferred_username: 'grace',
      roles: ['admin', 'user'],
      exp: expect.any(Number),
    });
    expect(identity.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(290);
    expect(idp.fetched).toEqual([
      `${TEST_ISSUER}/.well-known/openid-configuration`,
      `${TEST_ISSUER}/protocol/openid-connect/certs`,
    ]);

    // Warm: the same token again, and a new one, fetch nothing more.
    await idp.verifier.verify(tokens.access_token);
    await idp.verifier.verify((await idp.login('grace', 'cobol-rules')).access_token);
    expect(idp.fetched).toHaveLength(2);
  });

  test('refresh and ID tokens of the provider do not pass as access tokens', async () => {
    const tokens = await idp.token({ grant_type: 'password', username: 'grace', password: 'cobol-rules', scope: 'openid' });
    const body = await tokens.json();
    expect((await refusal(body.refresh_token)).message).toBe('not an access token');
    expect((await refusal(body.id_token)).message).toBe('not an access token');
  });

  test('an expired token of the realm: token_expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const error = await refusal(await signAsRealm({ azp: 'loadplane', iat: now - 900, exp: now - 600 }));
    expect(error.code).toBe('token_expired');
    expect(error.message).toBe('access token expired');
  });

  test('the realm key under another issuer, or for another client: unauthorized', async () => {
    expect((await refusal(await signAsRealm({ azp: 'loadplane', iss: 'http://localhost/auth/realms/other' }))).code).toBe(
      'unauthorized',
    );
    expect((await refusal(await signAsRealm({ azp: 'someone-else' }))).code).toBe('unauthorized');
    expect((await idp.verifier.verify(await signAsRealm({ azp: 'loadplane' }))).sub).toBe(grace.id);
  });
});
