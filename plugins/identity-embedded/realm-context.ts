/** Everything the embedded provider's routes share for its one realm: config, database, key, tokens, sessions, brute-force detection. */
import type { DataFiles, InstanceAuditLog, Logger } from 'loadplane/plugin';
import { type BruteForceProtector, createBruteForceProtector } from './brute-force-protector.ts';
import type { IdentityEmbeddedConfig } from './config.ts';
import { retireInitialAdminPassword } from './initial-admin-password.ts';
import { createLockoutAudit } from './lockout-audit.ts';
import { createLoginFailureStore, type LoginFailureStore } from './login-failures.ts';
import type { HashAdmission } from './password-hash-slots.ts';
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
  bruteForce: BruteForceProtector;
  loginFailures: LoginFailureStore;
  /** How long and behind how many a sign-in may queue for a hashing slot. */
  hashAdmission: HashAdmission;
  /** Called after a user's password was set through this provider. */
  passwordChanged(userId: string): Promise<void>;
  logger: Logger;
}

export function createRealmContext(input: {
  config: IdentityEmbeddedConfig;
  db: DatabaseLike;
  key: RealmKey;
  logger: Logger;
  /** Where the bootstrap admin's generated password is kept; absent, nothing is retired. */
  files?: DataFiles;
  /** The host's audit log; absent (the provider on its own), lockouts are only logged. */
  auditLog?: InstanceAuditLog | null;
}): RealmContext {
  const { config, db, key, logger, files } = input;
  const baseUrl = config.issuerBaseUrl.replace(/\/+$/, '');
  const issuer = `${baseUrl}/realms/${config.realm}`;
  const loginFailures = createLoginFailureStore(db, config.realm);
  const admin = config.bootstrapAdmin;
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
    bruteForce: createBruteForceProtector({
      settings: config.bruteForce,
      store: loginFailures,
      audit: createLockoutAudit(input.auditLog ?? null, config.realm, logger),
    }),
    loginFailures,
    hashAdmission: {
      maxWaitMillis: config.bruteForce.passwordHashQueueMillis,
      maxQueueLength: config.bruteForce.passwordHashQueueLength,
    },
    async passwordChanged() {
      // Whoever's password it was, the check is one file read unless the file is there.
      if (files && admin) await retireInitialAdminPassword({ db, files, logger, realm: config.realm, username: admin.username });
    },
    logger,
  };
}

/** The scope a grant answers: Keycloak's default client scopes, with `openid` first when it was asked for. */
export function grantedScope(requested: string | undefined): string {
  const asked = new Set((requested ?? '').split(/\s+/).filter(Boolean));
  return [...(asked.has('openid') ? ['openid'] : []), 'profile', 'email'].join(' ');
}
