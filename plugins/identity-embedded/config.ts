/** The embedded identity provider's configuration slice (TypeBox), validated by the kernel at boot. */
import { type Static, Type } from '@sinclair/typebox';

/** Keycloak's current default for pbkdf2-sha512 (Keycloak 24+, following OWASP's 2023 advice). */
export const DEFAULT_PASSWORD_ITERATIONS = 210_000;

/**
 * Brute-force detection, with Keycloak's setting names and algorithm (Realm settings > Security defenses): after
 * `failureFactor` failures an account waits `waitIncrementSeconds`, one more increment per further `failureFactor`
 * failures, at most `maxFailureWaitSeconds`; the count restarts after `maxDeltaTimeSeconds` without a failure and at
 * a successful sign-in. The defaults are stricter than Keycloak's (30 failures) so that the 11th wrong password
 * within a minute is refused before any hashing.
 */
export const BruteForceSchema = Type.Object(
  {
    /** Keycloak's `bruteForceProtected`. */
    enabled: Type.Boolean({ default: true }),
    /** Past `failureFactor` failures the account stays locked until an admin clears it (attack-detection API). */
    permanentLockout: Type.Boolean({ default: false }),
    failureFactor: Type.Integer({ minimum: 1, default: 10 }),
    waitIncrementSeconds: Type.Integer({ minimum: 1, default: 60 }),
    maxFailureWaitSeconds: Type.Integer({ minimum: 1, default: 900 }),
    /** Keycloak's "Failure reset time": 12 hours. */
    maxDeltaTimeSeconds: Type.Integer({ minimum: 1, default: 43_200 }),
    /**
     * Two failures closer than this lock for `minimumQuickLoginWaitSeconds` (a script, not a person). Off by default:
     * Keycloak's 1000 ms would lock a user who double-submits a form, and the failure factor already stops scripts.
     */
    quickLoginCheckMilliSeconds: Type.Integer({ minimum: 0, default: 0 }),
    minimumQuickLoginWaitSeconds: Type.Integer({ minimum: 0, default: 60 }),
    /**
     * Not in Keycloak: the same count per client address over every name, so one source cannot keep guessing across
     * accounts. Past it the address is throttled, not locked: for the wait the algorithm gives, attempts from it are
     * refused (429) only for the names that failed from it within `maxDeltaTimeSeconds`; a name that has not (another
     * user behind the same NAT, or on the same machine's loopback as the local agent's scripts) still has its password
     * checked. A right password clears that name's failures from the address. 0 turns it off. Higher than the
     * account's: many people may share one address.
     */
    addressFailureFactor: Type.Integer({ minimum: 0, default: 30 }),
    /**
     * PBKDF2 derivations run at once in this process (each takes ~0.2 s of one core at 210000 rounds); default half
     * the cores, at least one, so guessing cannot take every core. Sign-ins beyond it queue.
     */
    maxConcurrentPasswordHashes: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
    /** How long a sign-in may queue for a hashing slot before it is answered 503 (busy) instead. */
    passwordHashQueueMillis: Type.Integer({ minimum: 0, default: 5_000 }),
    /** At most this many sign-ins queue per process; more are answered 503 at once. */
    passwordHashQueueLength: Type.Integer({ minimum: 0, default: 64 }),
  },
  { default: {} },
);

export type BruteForceSettings = Static<typeof BruteForceSchema>;

export const IdentityEmbeddedConfigSchema = Type.Object({
  issuerBaseUrl: Type.String({
    pattern: '^https?://[^\\s]+$',
    description: 'public base of the identity provider, e.g. http://localhost:8080/auth; iss = <this>/realms/<realm>',
  }),
  realm: Type.String({ pattern: '^[A-Za-z0-9._-]+$', description: 'the one realm this provider serves' }),
  clientId: Type.String({ minLength: 1, description: 'the confidential client allowed to use the token endpoint' }),
  clientSecret: Type.String({ minLength: 1, description: "that client's secret" }),
  bootstrapAdmin: Type.Optional(
    Type.Object({
      username: Type.String({ minLength: 1 }),
      /** Unset: a strong password is generated, logged once and written to the data file `initial-admin-password`. */
      password: Type.Optional(Type.String({ minLength: 1 })),
    }),
  ),
  /** Where the authorization-code flow may send the browser back; a trailing `*` matches any suffix (as Keycloak). */
  redirectUris: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
  /**
   * A public client beside the confidential one (the bundled UI, `loadplane-ui`): no secret, authorization code with
   * PKCE S256 and refresh only (no password grant), back only to its own redirect URIs.
   */
  publicClient: Type.Optional(
    Type.Object({
      clientId: Type.String({ minLength: 1 }),
      redirectUris: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    }),
  ),
  accessTokenLifetimeSeconds: Type.Integer({ minimum: 1, default: 300 }),
  /** Idle lifetime of a session: each refresh extends it by this much. */
  refreshTokenLifetimeSeconds: Type.Integer({ minimum: 1, default: 1800 }),
  /** A session ends this long after sign-in however often it is refreshed (Keycloak's SSO Session Max). */
  sessionMaxLifetimeSeconds: Type.Integer({ minimum: 1, default: 36_000 }),
  passwordIterations: Type.Integer({ minimum: 1, maximum: 10_000_000, default: DEFAULT_PASSWORD_ITERATIONS }),
  bruteForce: BruteForceSchema,
});

export type IdentityEmbeddedConfig = Static<typeof IdentityEmbeddedConfigSchema>;
