/** The OIDC identity plugin: verifies bearer JWTs of any OpenID Connect provider (Keycloak, the embedded one) by discovery + JWKS. */
import { definePlugin, outboundFetchPort, tokenVerifierCapability } from 'loadplane/plugin';
import { IdentityOidcConfigSchema } from './config.ts';
import { createOidcTokenVerifier } from './oidc-token-verifier.ts';

export { DEFAULT_ALLOWED_ALGORITHMS, type IdentityOidcConfig, IdentityOidcConfigSchema } from './config.ts';
export { createOidcTokenVerifier, type OidcTokenVerifierOptions } from './oidc-token-verifier.ts';

export default definePlugin({
  name: 'identity-oidc',
  configSchema: IdentityOidcConfigSchema,
  setup(ctx) {
    // Keys are fetched lazily at the first token: the provider may be this very process, not listening yet.
    const verifier = createOidcTokenVerifier({ config: ctx.config, fetch: ctx.use(outboundFetchPort), logger: ctx.logger });
    ctx.provide(tokenVerifierCapability, verifier);
  },
});
