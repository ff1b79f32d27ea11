/** The realm's OpenID Provider metadata (`.well-known/openid-configuration`), with Keycloak's endpoint paths. */
import type { RealmContext } from './realm-context.ts';

export function discoveryDocument(ctx: RealmContext) {
  const endpoint = `${ctx.issuer}/protocol/openid-connect`;
  return {
    issuer: ctx.issuer,
    authorization_endpoint: `${endpoint}/auth`,
    token_endpoint: `${endpoint}/token`,
    userinfo_endpoint: `${endpoint}/userinfo`,
    end_session_endpoint: `${endpoint}/logout`,
    jwks_uri: `${endpoint}/certs`,
    grant_types_supported: ['authorization_code', 'refresh_token', 'password'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [ctx.key.alg],
    userinfo_signing_alg_values_supported: ['none'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['openid', 'profile', 'email'],
    claims_supported: [
      'iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'name', 'given_name', 'family_name',
      'preferred_username', 'email', 'email_verified', 'acr', 'sid',
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    backchannel_logout_supported: false,
    frontchannel_logout_supported: false,
  };
}
