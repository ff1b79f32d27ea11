/** Verifies bearer JWTs of an OIDC provider (Keycloak or the embedded one) with jose, keys from discovery + JWKS. */
import { decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import {
  DomainError,
  type Logger,
  type OutboundFetch,
  type TokenVerifier,
  unauthorized,
  type VerifiedIdentity,
} from 'loadplane/plugin';
import type { IdentityOidcConfig } from './config.ts';
import { createJwksSource, IdentityProviderUnreachable, type KeySet } from './jwks-source.ts';
import { createVerifiedTokenCache } from './verified-token-cache.ts';

export interface OidcTokenVerifierOptions {
  config: IdentityOidcConfig;
  fetch: OutboundFetch;
  logger: Logger;
  /** Verified tokens kept in memory; the oldest go first. */
  cacheEntries?: number;
  /** Minimum gap between JWKS refetches caused by unknown key ids (default 30 s). */
  unknownKidRefetchMs?: number;
  /** The clock for caches and refetch throttling (tests move it); token expiry is always checked on real time. */
  now?: () => number;
}

/** Real access tokens are a few kilobytes; anything far larger is not worth parsing. */
const MAX_TOKEN_LENGTH = 16 * 1024;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const expired = () => new DomainError('token_expired', 'access token expired');

/** jose's failures as the capability's two codes, with a message that says what was wrong without echoing the token. */
function toDomainError(error: unknown): DomainError {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return expired();
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return unauthorized('access token signature is invalid');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return unauthorized(`access token rejected: ${(error as Error).message}`);
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return unauthorized('access token algorithm is not allowed');
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return unauthorized('access token is signed by an unknown key');
    default:
      return unauthorized('malformed access token');
  }
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const optionalString = (value: unknown) => (typeof value === 'string' ? value : null);

function toIdentity(payload: JWTPayload): VerifiedIdentity {
  const realmAccess = payload.realm_access as { roles?: unknown } | undefined;
  const roles = Array.isArray(realmAccess?.roles) ? realmAccess.roles.filter((role) => typeof role === 'string') : [];
  return {
    sub: payload.sub!,
    email: optionalString(payload.email),
    // Only an explicit `true` counts: an e-mail the provider did not verify must not find anyone (member invitations).
    email_verified: payload.email_verified === true,
    name: optionalString(payload.name),
    preferred_username: optionalString(payload.preferred_username),
    roles,
    exp: payload.exp!,
  };
}

export function createOidcTokenVerifier(options: OidcTokenVerifierOptions): TokenVerifier {
  const { config, logger } = options;
  const allowed = new Set<string>(config.allowedAlgorithms);
  const keys = createJwksSource({
    issuer: config.issuer,
    ...(config.discoveryBase ? { discoveryBase: config.discoveryBase } : {}),
    fetch: options.fetch,
    logger,
    cacheSeconds: config.jwksCacheSeconds,
    unknownKidRefetchMs: options.unknownKidRefetchMs,
    now: options.now,
  });
  const cache = createVerifiedTokenCache<VerifiedIdentity>(options.cacheEntries ?? 10_000, options.now);
  const verifyOptions = {
    issuer: config.issuer,
    algorithms: [...allowed],
    clockTolerance: config.clockToleranceSeconds,
    requiredClaims: ['exp', 'sub'],
  };

  /** Verifies against a key set; when several keys fit (no `kid`), tries each, as jose leaves that to the caller. */
  const verifyWith = async (token: string, keySet: KeySet) => {
    try {
      return await jwtVerify(token, keySet, verifyOptions);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw error;
      let last: unknown = error;
      for await (const key of error as AsyncIterable<CryptoKey>) {
        try {
          return await jwtVerify(token, key, verifyOptions);
        } catch (attempt) {
          last = attempt;
          if ((attempt as { code?: string }).code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') break;
        }
      }
      throw last;
    }
  };

  const checkedKeys = async (): Promise<KeySet> => {
    try {
      return await keys.current();
    } catch (error) {
      logger.error('identity provider unreachable: cannot fetch its signing keys', { error: (error as Error).message });
      throw unauthorized('identity provider unreachable: cannot verify the access token now');
    }
  };

  const verifySignature = async (token: string) => {
    try {
      return await verifyWith(token, await checkedKeys());
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw toDomainError(error);
    }
    // An unknown key id: the provider may have rotated its keys since we fetched them.
    let refreshed: KeySet | null;
    try {
      refreshed = await keys.refreshForUnknownKid();
    } catch (error) {
      if (!(error instanceof IdentityProviderUnreachable)) throw error;
      logger.error('identity provider unreachable: cannot refetch its signing keys', { error: error.message });
      throw unauthorized('identity provider unreachable: cannot verify the access token now');
    }
    if (!refreshed) throw unauthorized('access token is signed by an unknown key');
    try {
      return await verifyWith(token, refreshed);
    } catch (error) {
      throw toDomainError(error);
    }
  };

  return {
    async verify(token) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) {
        throw unauthorized('malformed access token');
      }
      // Keyed by a digest of the whole token: never by a part of it, which another payload could share.
      const cacheKey = await sha256(token);
      const cached = cache.get(cacheKey);
      if (cached) return { ...cached, roles: [...cached.roles] };

      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw unauthorized('malformed access token');
      }
      // Before any key lookup: `none` and HMAC algorithms must not even cause a JWKS refetch.
      if (typeof alg !== 'string' || !allowed.has(alg)) throw unauthorized('access token algorithm is not allowed');

      const { payload } = await verifySignature(token);
      // Keycloak marks refresh and ID tokens with another `typ`; only access tokens open the API.
      if (typeof payload.typ === 'string' && payload.typ.toLowerCase() !== 'bearer') {
        throw unauthorized('not an access token');
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthorized('access token has no subject');
      if (config.clientId !== undefined) {
        const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
        const clients = [config.clientId, ...(config.otherClientIds ?? [])];
        if (!clients.some((client) => payload.azp === client || audiences.includes(client))) {
          throw unauthorized('access token was issued to another client');
        }
      }
      const identity = toIdentity(payload);
      cache.set(cacheKey, identity, identity.exp * 1000);
      return { ...identity, roles: [...identity.roles] };
    },
  };
}
