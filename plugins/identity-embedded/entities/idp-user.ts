/** A user of the embedded identity provider: profile, password hash and realm roles, unique by username per realm. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const IdpUser = defineEntity({
  name: 'IdpUser',
  tableName: 'idp_users',
  properties: {
    id: p.uuid().primary(),
    realm: p.string(),
    /** Stored lower-cased, as Keycloak does; a unique index on lower(username) guards it too. */
    username: p.string(),
    email: p.string().nullable(),
    emailVerified: p.boolean(),
    firstName: p.string().nullable(),
    lastName: p.string().nullable(),
    enabled: p.boolean(),
    realmRoles: p.json<string[]>(),
    /** `pbkdf2-sha512$<iterations>$<salt>$<hash>`; null for a user without a password credential. */
    passwordHash: p.text().nullable().hidden(),
    /** Keycloak's "temporary" credential: the password grant refuses it until it is reset. */
    passwordTemporary: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IdpUser = InferEntity<typeof IdpUser>;
