/** The OIDC verifier against a stub provider: claims, refusals, key rotation, caching and an unreachable provider. */
import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import { DomainError, type TokenVerifier } from 'loadplane/plugin';
import { createCaptureLogger, type LogEntry } from '../identity-embedded/test-kernel.ts';
import { DEFAULT_ALLOWED_ALGORITHMS, type IdentityOidcConfig } from './config.ts';
import { createOidcTokenVerifier } from './oidc-token-verifier.ts';

const ISSUER = 'https://idp.example/realms/loadplane';
const JWKS_URI = `${ISSUER}/protocol/openid-connect/certs`;

interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function newKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** A stub provider: discovery and JWKS, with a log of what was asked and a switch to make it fail. */
function stubProvider(initialKeys: SigningKey[]) {
  const state = { keys: initialKeys, down: false, calls: [] as string[] };
  const fetch = async (request: Request) => {
    state.calls.push(request.url);
    if (state.down) throw new TypeError('connect ECONNREFUSED');
    if (request.url === `${ISSUER}/.well-known/openid-configuration`) {
      return Response.json({ issuer: ISSUER, jwks_uri: JWKS_URI });
    }
    if (request.url === JWKS_URI) return Response.json({ keys: state.keys.map((key) => key.publicJwk) });
    return new Response('not found', { status: 404 });
  };
  return { state, fetch };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function sign(key: SigningKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  return new SignJWT({
    iss: ISSUER,
    sub: 'user-1',
    typ: 'Bearer',
    azp: 'loadplane',
    aud: 'account',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    preferred_username: 'ada',
    realm_access: { roles: ['admin', 'user'] },
    iat: nowSeconds(),
    exp: nowSeconds() + 300,
    ...claims,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

async function refusal(verifier: TokenVerifier, token: string): Promise<DomainError> {
  try {
    await verifier.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('token was accepted');
}

let key1: SigningKey;
let provider: ReturnType<typeof stubProvider>;
let clock: number;
let logs: LogEntry[];

function verifierWith(config: Partial<IdentityOidcConfig> = {}): TokenVerifier {
  logs = [];
  return createOidcTokenVerifier({
    config: {
      issuer: ISSUER,
      allowedAlgorithms: [...DEFAULT_ALLOWED_ALGORITHMS],
      clockToleranceSeconds: 30,
      jwksCacheSeconds: 600,
      ...config,
    },
    fetch: provider.fetch,
    logger: createCaptureLogger(logs),
    now: () => clock,
  });
}

beforeEach(async () => {
  key1 ??= await newKey('key-1');
  provider = stubProvider([key1]);
  clock = Date.now();
});

describe('accepted tokens', () => {
  test('a valid token gives the identity, fetching discovery and JWKS once, lazily', async () => {
    const verifier = verifierWith();
    expect(provider.state.calls).toEqual([]);
    const token = await sign(key1);
    expect(await verifier.verify(token)).toEqual({
      sub: 'user-1',
      email: 'ada@example.com',
      email_verified: false,
      name: 'Ada Lovelace',
      preferred_username: 'ada',
      roles: ['admin', 'user'],
      exp: expect.any(Number),
    });
    expect(provider.state.calls).toEqual([`${ISSUER}/.well-known/openid-configuration`, JWKS_URI]);
  });

  test('missing optional claims become null, missing roles an empty array', async () => {
    const verifier = verifierWith();
    const token = await sign(key1, { email: undefined, name: undefined, preferred_username: undefined, realm_access: undefined });
    expect(await verifier.verify(token)).toMatchObject({ email: null, name: null, preferred_username: null, roles: [] });
  });

  test('email_verified counts only when the claim is the boolean true', async () => {
    const verifier = verifierWith();
    expect((await verifier.verify(await sign(key1, { email_verified: true }))).email_verified).toBe(true);
    for (const claim of [false, 'true', 1, undefined]) {
      expect((await verifier.verify(await sign(key1, { email_verified: claim }))).email_verified, String(claim)).toBe(false);
    }
  });

  test('a warm token needs no fetch and no signature check', async () => {
    const verifier = verifierWith();
    const token = await sign(key1);
    await verifier.verify(token);
    const calls = provider.state.calls.length;
    const other = await sign(key1, { sub: 'user-2' });
    const subtleVerify = spyOn(crypto.subtle, 'verify');
    try {
      const identity = await verifier.verify(token);
      identity.roles.push('tampered');
      expect((await verifier.verify(token)).roles).toEqual(['admin', 'user']);
      expect(subtleVerify).not.toHaveBeenCalled();
      // The spy does see signature checks: a token not seen before needs one, with the keys already fetched.
      await verifier.verify(other);
      expect(subtleVerify).toHaveBeenCalledTimes(1);
    } finally {
      subtleVerify.mockRestore();
    }
    expect(provider.state.calls.length).toBe(calls);
  });

  test('EC keys and keys without kid work too', async () => {
    const ec = await newKey('ec-1', 'ES256');
    const noKid = await newKey('unused');
    delete noKid.publicJwk.kid;
    provider.state.keys = [key1, ec, noKid];
    const verifier = verifierWith();
    expect((await verifier.verify(await sign(ec))).sub).toBe('user-1');
    // Without a kid, every RS256 key fits: each is tried.
    const anonymous = await new SignJWT({ iss: ISSUER, sub: 'anon', exp: nowSeconds() + 60 })
      .setProtectedHeader({ alg: 'RS256' })
      .sign(noKid.privateKey);
    expect((await verifier.verify(anonymous)).sub).toBe('anon');
  });
});

describe('refused tokens', () => {
  test('expired: token_expired "access token expired"', async () => {
    const verifier = verifierWith();
    const error = await refusal(verifier, await sign(key1, { iat: nowSeconds() - 600, exp: nowSeconds() - 60 }));
    expect(error.code).toBe('token_expired');
    expect(error.message).toBe('access token expired');
    // Within the clock tolerance it still passes.
    expect((await verifier.verify(await sign(key1, { exp: nowSeconds() - 10 }))).sub).toBe('user-1');
  });

  test('not yet valid, wrong issuer, no subject, not an access token: unauthorized', async () => {
    const verifier = verifierWith();
    for (const claims of [
      { nbf: nowSeconds() + 600 },
      { iss: 'https://evil.example/realms/loadplane' },
      { iss: `${ISSUER}/` },
      { sub: undefined },
      { typ: 'Refresh' },
      { typ: 'ID' },
      { exp: undefined },
    ]) {
      expect((await refusal(verifier, await sign(key1, claims))).code).toBe('unauthorized');
    }
  });

  test('a token signed by another key under a known kid: unauthorized', async () => {
    const verifier = verifierWith();
    const impostor = await newKey('key-1');
    const error = await refusal(verifier, await sign(impostor));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('access token signature is invalid');
  });

  test('alg none: unauthorized, without any fetch', async () => {
    const verifier = verifierWith();
    const token = new UnsecuredJWT({ iss: ISSUER, sub: 'user-1', exp: nowSeconds() + 300 }).encode();
    const error = await refusal(verifier, token);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('access token algorithm is not allowed');
    expect(provider.state.calls).toEqual([]);
  });

  test('HS256 signed with the public key material (algorithm confusion): unauthorized, without any fetch', async () => {
    const verifier = verifierWith();
    await verifier.verify(await sign(key1));
    const calls = provider.state.calls.length;
    const encoder = new TextEncoder();
    for (const secret of [JSON.stringify(key1.publicJwk), key1.publicJwk.n!, JSON.stringify({ keys: [key1.publicJwk] })]) {
      const token = await new SignJWT({ iss: ISSUER, sub: 'user-1', exp: nowSeconds() + 300 })
        .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
        .sign(encoder.encode(secret));
      expect((await refusal(verifier, token)).code).toBe('unauthorized');
    }
    expect(provider.state.calls.length).toBe(calls);
  });

  test('an algorithm outside the allow-list: unauthorized', async () => {
    const ec = await newKey('ec-1', 'ES256');
    provider.state.keys = [key1, ec];
    const verifier = verifierWith({ allowedAlgorithms: ['RS256'] });
    expect((await refusal(verifier, await sign(ec))).message).toBe('access token algorithm is not allowed');
  });

  test('malformed tokens: unauthorized', async () => {
    const verifier = verifierWith();
    for (const token of ['', 'abc', 'a.b', 'a.b.c', '!!.??.**', `${'a'.repeat(20_000)}.b.c`]) {
      expect((await refusal(verifier, token)).code).toBe('unauthorized');
    }
  });

  test('clientId: the client must be the azp or among the audiences', async () => {
    const verifier = verifierWith({ clientId: 'loadplane' });
    expect((await verifier.verify(await sign(key1))).sub).toBe('user-1');
    expect((await verifier.verify(await sign(key1, { azp: 'other', aud: ['account', 'loadplane'] }))).sub).toBe('user-1');
    const error = await refusal(verifier, await sign(key1, { azp: 'other', aud: 'account' }));
    expect(error.message).toBe('access token was issued to another client');
  });
});

describe('key rotation', () => {
  test('an unknown kid refetches the JWKS once; further unknown kids wait 30 s', async () => {
    const verifier = verifierWith();
    await verifier.verify(await sign(key1));
    const jwksFetches = () => provider.state.calls.filter((url) => url === JWKS_URI).length;
    expect(jwksFetches()).toBe(1);

    const key2 = await newKey('key-2');
    provider.state.keys = [key2];
    clock += 31_000;
    expect((await verifier.verify(await sign(key2))).sub).toBe('user-1');
    expect(jwksFetches()).toBe(2);
    // Discovery is not asked again for a rotation.
    expect(provider.state.calls.filter((url) => url.endsWith('/openid-configuration'))).toHaveLength(1);

    // Junk kids right after: refused without another fetch.
    const stranger = await newKey('key-3');
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await refusal(verifier, await sign(stranger))).message).toBe('access token is signed by an unknown key');
    }
    expect(jwksFetches()).toBe(2);
    // Once the 30 s have passed, the next unknown kid may look again.
    clock += 31_000;
    await refusal(verifier, await sign(stranger));
    expect(jwksFetches()).toBe(3);
  });

  test('keys older than jwksCacheSeconds are fetched again; the old ones serve on while the provider is down', async () => {
    const verifier = verifierWith({ jwksCacheSeconds: 60 });
    await verifier.verify(await sign(key1));
    clock += 61_000;
    await verifier.verify(await sign(key1, { sub: 'fresh-token' }));
    expect(provider.state.calls.filter((url) => url === JWKS_URI)).toHaveLength(2);

    clock += 61_000;
    provider.state.down = true;
    expect((await verifier.verify(await sign(key1, { sub: 'while-down' }))).sub).toBe('while-down');
    expect(logs.some((entry) => entry.level === 'warn' && entry.message.includes('using the cached ones'))).toBe(true);
  });
});

describe('unreachable provider', () => {
  test('answers unauthorized naming the provider, logs it, and recovers when it is back', async () => {
    provider.state.down = true;
    const verifier = verifierWith();
    const token = await sign(key1);
    const error = await refusal(verifier, token);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toContain('identity provider unreachable');
    expect(logs.some((entry) => entry.level === 'error' && entry.message.includes('identity provider unreachable'))).toBe(true);

    provider.state.down = false;
    expect((await verifier.verify(token)).sub).toBe('user-1');
  });

  test('a discovery answer without jwks_uri, or an error status, counts as unreachable', async () => {
    for (const answer of [Response.json({ issuer: ISSUER }), new Response('oops', { status: 500 }), new Response('<html>')]) {
      const verifier = createOidcTokenVerifier({
        config: { issuer: ISSUER, allowedAlgorithms: ['RS256'], clockToleranceSeconds: 30, jwksCacheSeconds: 600 },
        fetch: async () => answer.clone(),
        logger: createCaptureLogger(),
      });
      expect((await refusal(verifier, await sign(key1))).message).toContain('identity provider unreachable');
    }
  });
});

afterEach(() => {
  provider.state.down = false;
});
