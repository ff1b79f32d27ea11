/** The embedded identity provider plugin: a Keycloak-compatible realm under /auth, with users and sessions in the database. */
import { databasePort, dataFilesPort, definePlugin, httpRoutesCapability, instanceAuditLogPort } from 'loadplane/plugin';
import { ensureBootstrapAdmin } from './bootstrap-admin.ts';
import { IdentityEmbeddedConfigSchema } from './config.ts';
import { IdpAuthorizationCode } from './entities/idp-authorization-code.ts';
import { IdpLoginFailure } from './entities/idp-login-failure.ts';
import { IdpSession } from './entities/idp-session.ts';
import { IdpUser } from './entities/idp-user.ts';
import { createIdpRoutes } from './idp-routes.ts';
import { IdentityEmbedded0001UsersAndSessions } from './migrations/0001-users-and-sessions.ts';
import { IdentityEmbedded0002AuthorizationCodes } from './migrations/0002-authorization-codes.ts';
import { IdentityEmbedded0003LoginFailures } from './migrations/0003-login-failures.ts';
import { IdentityEmbedded0004UserLookupIndexes } from './migrations/0004-user-lookup-indexes.ts';
import { IdentityEmbedded0005AddressAccountFailures } from './migrations/0005-address-account-failures.ts';
import { defaultHashConcurrency, passwordHashSlots } from './password-hash-slots.ts';
import { createRealmContext } from './realm-context.ts';
import { loadOrCreateRealmKey, REALM_KEY_FILE } from './realm-key.ts';

export const identityEmbeddedEntities = [IdpUser, IdpSession, IdpAuthorizationCode, IdpLoginFailure];
/** In the order they apply; never edit one that has shipped, add the next. */
export const identityEmbeddedMigrations = [
  IdentityEmbedded0001UsersAndSessions,
  IdentityEmbedded0002AuthorizationCodes,
  IdentityEmbedded0003LoginFailures,
  IdentityEmbedded0004UserLookupIndexes,
  IdentityEmbedded0005AddressAccountFailures,
];

export { type IdentityEmbeddedConfig, IdentityEmbeddedConfigSchema } from './config.ts';
export { BOOTSTRAP_ADMIN_ROLES, INITIAL_ADMIN_PASSWORD_FILE } from './bootstrap-admin.ts';
export { type BruteForceSettings, DEFAULT_PASSWORD_ITERATIONS } from './config.ts';
export { LOCKOUT_ACTIONS } from './lockout-audit.ts';
export { passwordDerivationCount } from './password-hash.ts';
export { IDP_MOUNT_PATH } from './idp-routes.ts';
export { REALM_KEY_FILE } from './realm-key.ts';
export {
  createRealmUser,
  type DatabaseLike,
  deleteRealmUser,
  findRealmUserById,
  findRealmUserByUsername,
  type NewRealmUser,
  type PasswordOptions,
  type RealmUser,
  type RealmUserChanges,
  setRealmUserPassword,
  updateRealmUser,
  USER_EXISTS_WITH_SAME_EMAIL,
  USER_EXISTS_WITH_SAME_USERNAME,
} from './realm-users.ts';
export { countRealmUsers, listRealmUsers, type RealmUserQuery } from './realm-user-search.ts';

export default definePlugin({
  name: 'identity-embedded',
  configSchema: IdentityEmbeddedConfigSchema,
  entities: identityEmbeddedEntities,
  migrations: identityEmbeddedMigrations,
  async setup(ctx) {
    const db = ctx.use(databasePort);
    const files = ctx.use(dataFilesPort);
    const { key, created } = await loadOrCreateRealmKey(files);
    if (created) ctx.logger.info('generated the realm signing key', { kid: key.kid, file: REALM_KEY_FILE });
    // The bound is per process, as the cores are; with several providers in one process the last one set up decides.
    passwordHashSlots.setLimit(ctx.config.bruteForce.maxConcurrentPasswordHashes ?? defaultHashConcurrency());
    // The host's audit log, when there is one (the provider also runs on its own, in its tests).
    const auditLog = ctx.has(instanceAuditLogPort) ? ctx.use(instanceAuditLogPort) : null;
    const realm = createRealmContext({ config: ctx.config, db, key, logger: ctx.logger, files, auditLog });
    if (ctx.config.bootstrapAdmin) {
      await ensureBootstrapAdmin({
        db,
        files,
        logger: ctx.logger,
        realm: realm.realm,
        admin: ctx.config.bootstrapAdmin,
        passwordIterations: ctx.config.passwordIterations,
      });
    }
    ctx.provide(httpRoutesCapability, { name: 'identity-embedded', routes: createIdpRoutes(realm) });
    ctx.logger.info('embedded identity provider ready', { issuer: realm.issuer });
  },
});
