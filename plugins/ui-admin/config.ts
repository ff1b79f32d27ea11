/** The ui-admin plugin's configuration slice (TypeBox), validated by the kernel at boot; the composition root fills it. */
import { type Static, Type } from '@sinclair/typebox';

export const UiAdminConfigSchema = Type.Object({
  /** The OIDC issuer the UI signs in with: `{PUBLIC_URL}/auth/realms/{realm}` (embedded) or `{AUTH_URL}/realms/{AUTH_REALM}`. */
  authority: Type.String({ pattern: '^https?://[^\\s]+$' }),
  /** The public client (authorization code + PKCE) the UI is in the identity provider. */
  clientId: Type.String({ minLength: 1, default: 'loadplane-ui' }),
  /** Where the UI finds the REST API, relative to its own origin. */
  apiBaseUrl: Type.String({ minLength: 1, default: '/api/v1' }),
  /** The service's version, shown by the UI. */
  version: Type.String({ default: '0.0.0' }),
});

export type UiAdminConfig = Static<typeof UiAdminConfigSchema>;
