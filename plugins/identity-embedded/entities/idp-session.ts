/** A sign-in session of the embedded identity provider: its id is the tokens' `sid`; deleting it ends refreshes. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const IdpSession = defineEntity({
  name: 'IdpSession',
  tableName: 'idp_sessions',
  properties: {
    id: p.uuid().primary(),
    realm: p.string(),
    userId: p.uuid(),
    clientId: p.string(),
    /** The granted scope, kept so a refresh answers the same scope. */
    scope: p.string(),
    createdAt: p.datetime(),
    refreshedAt: p.datetime(),
    /** Idle expiry: moved forward by each refresh, never past createdAt + the maximum session lifetime. */
    expiresAt: p.datetime(),
  },
});
export type IdpSession = InferEntity<typeof IdpSession>;
