/** The embedded identity provider's configuration slice (TypeBox), validated by the kernel at boot. */
import { type Static, Type } from '@sinclair/typebox';

/** Keycloak's current default for pbkdf2-sha512 (Keycloak 24+, following OWASP's 2023 advice). */
export const DEFAULT_PASSWORD_ITERATIONS = 210_000;

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
  accessTokenLifetimeSeconds: Type.Integer({ minimum: 1, default: 300 }),
  /** Idle lifetime of a session: each refresh extends it by this much. */
  refreshTokenLifetimeSeconds: Type.Integer({ minimum: 1, default: 1800 }),
  /** A session ends this long after sign-in however often it is refreshed (Keycloak's SSO Session Max). */
  sessionMaxLifetimeSeconds: Type.Integer({ minimum: 1, default: 36_000 }),
  passwordIterations: Type.Integer({ minimum: 1, maximum: 10_000_000, default: DEFAULT_PASSWORD_ITERATIONS }),
});

export type IdentityEmbeddedConfig = Static<typeof IdentityEmbeddedConfigSchema>;
