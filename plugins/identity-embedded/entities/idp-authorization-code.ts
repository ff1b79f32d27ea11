/** A one-time authorization code of the browser sign-in: stored by digest, bound to client, redirect URI and PKCE challenge. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const IdpAuthorizationCode = defineEntity({
  name: 'IdpAuthorizationCode',
  tableName: 'idp_authorization_codes',
  properties: {
    /** SHA-256 of the code, base64url: a leaked table row cannot be redeemed. */
    codeHash: p.string().primary(),
    realm: p.string(),
    sessionId: p.uuid(),
    userId: p.uuid(),
    clientId: p.string(),
    redirectUri: p.text(),
    codeChallenge: p.string(),
    nonce: p.text().nullable(),
    scope: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    /** Set at redemption; a second redemption finds it set and ends the session (RFC 6749 4.1.2). */
    consumedAt: p.datetime().nullable(),
  },
});
export type IdpAuthorizationCode = InferEntity<typeof IdpAuthorizationCode>;
