/** A user's profile as last seen in the identity provider's token; `subject` is the provider's `sub`. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const UserProfile = defineEntity({
  name: 'UserProfile',
  tableName: 'user_profiles',
  properties: {
    id: p.uuid().primary(),
    subject: p.string().unique(),
    email: p.string().nullable(),
    /** The provider's `email_verified`: only a verified e-mail finds this user for an invitation. */
    emailVerified: p.boolean().default(false),
    name: p.string().nullable(),
    username: p.string().nullable(),
    /** Realm roles as of the last sign-in with a JWT, so API-token callers can answer /auth/me. */
    realmRoles: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type UserProfile = InferEntity<typeof UserProfile>;
