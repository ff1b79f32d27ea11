/** The OIDC token verifier's configuration slice (TypeBox), validated by the kernel at boot. */
import { type Static, Type } from '@sinclair/typebox';

/** Asymmetric algorithms only: an HMAC algorithm here would let anyone holding the public JWKS mint tokens. */
export const SUPPORTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export const DEFAULT_ALLOWED_ALGORITHMS = SUPPORTED_ALGORITHMS.filter((alg) => alg !== 'EdDSA');

export const IdentityOidcConfigSchema = Type.Object({
  issuer: Type.String({
    pattern: '^https?://[^\\s]+$',
    description: 'the provider\'s issuer, e.g. ${AUTH_URL}/realms/${realm}; tokens\' `iss` must equal it exactly',
  }),
  /**
   * Where to fetch discovery when the service reaches the provider by another address than the one in tokens'
   * `iss` (compose: back channel http://keycloak:8080, issuer http://localhost:8081). Defaults to `issuer`.
   */
  discoveryBase: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  /** When set, a token must name this client in `azp` or `aud` (Keycloak puts the client in `azp`, `aud` is `account`). */
  clientId: Type.Optional(Type.String({ minLength: 1 })),
  /** With `clientId`: further clients whose tokens are accepted too (the bundled UI's public client `loadplane-ui`). */
  otherClientIds: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  allowedAlgorithms: Type.Array(Type.Union(SUPPORTED_ALGORITHMS.map((alg) => Type.Literal(alg))), {
    minItems: 1,
    default: [...DEFAULT_ALLOWED_ALGORITHMS],
  }),
  clockToleranceSeconds: Type.Integer({ minimum: 0, maximum: 300, default: 30 }),
  /** How long fetched signing keys are trusted before they are fetched again. */
  jwksCacheSeconds: Type.Integer({ minimum: 1, default: 600 }),
});

export type IdentityOidcConfig = Static<typeof IdentityOidcConfigSchema>;
