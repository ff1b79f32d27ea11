/** Everything the embedded provider's routes share for its one realm: config, database, key, tokens, sessions. */
import type { Logger } from '../../core/kernel/logger.ts';
import type { IdentityEmbeddedConfig } from './config.ts';
import type { RealmKey } from './realm-key.ts';
import { createSessionStore, type SessionStore } from './realm-sessions.ts';
import type { DatabaseLike } from './realm-users.ts';
import { createTokenService, type TokenService } from './token-service.ts';

export interface RealmContext {
  config: IdentityEmbeddedConfig;
  realm: string;
  /** Public base without a trailing slash, e.g. http://localhost:8080/auth */
  baseUrl: string;
  /** `${baseUrl}/realms/${realm}`: every token's `iss`. */
  issuer: string;
  db: DatabaseLike;
  key: RealmKey;
  tokens: TokenService;
  sessions: SessionStore;
  logger: Logger;
}

export function createRealmContext(input: {
  config: IdentityEmbeddedConfig;
  db: DatabaseLike;
  key: RealmKey;
  logger: Logger;
}): RealmContext {
  const { config, db, key, logger } = input;
  const baseUrl = config.issuerBaseUrl.replace(/\/+$/, '');
  const issuer = `${baseUrl}/realms/${config.realm}`;
  return {
    config,
    realm: config.realm,
    baseUrl,
    issuer,
    db,
    key,
    tokens: createTokenService({ key, issuer, accessTokenLifetimeSeconds: config.accessTokenLifetimeSeconds }),
    sessions: createSessionStore(db, config.realm, {
      idleSeconds: config.refreshTokenLifetimeSeconds,
      maxSeconds: config.sessionMaxLifetimeSeconds,
    }),
    logger,
  };
}

/** The scope a grant answers: Keycloak's default client scopes, with `openid` first when it was asked for. */
export function grantedScope(requested: string | undefined): string {
  const asked = new Set((requested ?? '').split(/\s+/).filter(Boolean));
  return [...(asked.has('openid') ? ['openid'] : []), 'profile', 'email'].join(' ');
}
