/** The provider's signing keys: discovery, then `jwks_uri`, through the outbound-fetch port; cached, refetched on rotation. */
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { Logger, OutboundFetch } from 'loadplane/plugin';

export type KeySet = ReturnType<typeof createLocalJWKSet>;

export interface JwksSourceOptions {
  issuer: string;
  /** Base URL for discovery when it differs from the issuer (a back-channel address). */
  discoveryBase?: string;
  fetch: OutboundFetch;
  logger: Logger;
  /** Keys older than this are fetched again before use (the old ones serve on if that fails). */
  cacheSeconds: number;
  /** An unknown `kid` refetches the keys at most this often, so junk tokens cannot make us hammer the provider. */
  unknownKidRefetchMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/** The provider could not be asked for its keys: no answer, an error status, or an answer that is not what OIDC says. */
export class IdentityProviderUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IdentityProviderUnreachable';
  }
}

interface Loaded {
  keySet: KeySet;
  fetchedAt: number;
}

export function createJwksSource(options: JwksSourceOptions) {
  const now = options.now ?? Date.now;
  const refetchMs = options.unknownKidRefetchMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const discoveryUrl = `${(options.discoveryBase ?? options.issuer).replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let jwksUri: string | null = null;
  let loaded: Loaded | null = null;
  let inFlight: Promise<Loaded> | null = null;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;

  const getJson = async (url: string, what: string): Promise<unknown> => {
    let response: Response;
    try {
      response = await options.fetch(
        new Request(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) }),
      );
    } catch (error) {
      throw new IdentityProviderUnreachable(`${what} ${url}: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw new IdentityProviderUnreachable(`${what} ${url} answered ${response.status}`);
    try {
      return await response.json();
    } catch (error) {
      throw new IdentityProviderUnreachable(`${what} ${url} did not answer JSON`, { cause: error });
    }
  };

  const discoverJwksUri = async (): Promise<string> => {
    const metadata = (await getJson(discoveryUrl, 'OIDC discovery')) as { issuer?: unknown; jwks_uri?: unknown } | null;
    if (typeof metadata?.jwks_uri !== 'string' || !/^https?:\/\//.test(metadata.jwks_uri)) {
      throw new IdentityProviderUnreachable(`OIDC discovery ${discoveryUrl} has no usable jwks_uri`);
    }
    if (metadata.issuer !== options.issuer) {
      // Tokens are still checked against the configured issuer; this only explains the 401s that will follow.
      options.logger.warn('OIDC discovery names another issuer than configured', {
        configured: options.issuer,
        discovered: metadata.issuer,
      });
    }
    return metadata.jwks_uri;
  };

  const load = async (): Promise<Loaded> => {
    lastAttemptAt = now();
    try {
      jwksUri ??= await discoverJwksUri();
      const jwks = await getJson(jwksUri, 'JWKS');
      let keySet: KeySet;
      try {
        keySet = createLocalJWKSet(jwks as JSONWebKeySet);
      } catch (error) {
        throw new IdentityProviderUnreachable(`JWKS ${jwksUri} is not a valid key set`, { cause: error });
      }
      loaded = { keySet, fetchedAt: now() };
      return loaded;
    } catch (error) {
      // The provider may have moved its keys: discover afresh next time.
      jwksUri = null;
      throw error;
    }
  };

  /** One fetch at a time: concurrent first requests share it. */
  const reload = (): Promise<Loaded> => {
    inFlight ??= load().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  return {
    /** The keys to verify with: fetched on first use, and again once older than the cache lifetime. */
    async current(): Promise<KeySet> {
      if (loaded && now() - loaded.fetchedAt < options.cacheSeconds * 1000) return loaded.keySet;
      if (!loaded) return (await reload()).keySet;
      // A refresh failed a moment ago: keep serving the old keys instead of asking again on every request.
      if (now() - lastAttemptAt < refetchMs) return loaded.keySet;
      try {
        return (await reload()).keySet;
      } catch (error) {
        options.logger.warn('could not refresh the identity provider keys; using the cached ones', {
          error: (error as Error).message,
        });
        return loaded.keySet;
      }
    },

    /** After a token named a `kid` we do not know: fresh keys, or null when we fetched too recently to try again. */
    async refreshForUnknownKid(): Promise<KeySet | null> {
      if (inFlight) return (await inFlight).keySet;
      if (now() - lastAttemptAt < refetchMs) return null;
      return (await reload()).keySet;
    },
  };
}

export type JwksSource = ReturnType<typeof createJwksSource>;
