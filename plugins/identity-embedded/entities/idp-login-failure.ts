/**
 * Failed sign-ins of one account, one client address, or one name from one address (Keycloak's login failures, and
 * the per-address throttle's): the count and the lockout they caused.
 */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const IdpLoginFailure = defineEntity({
  name: 'IdpLoginFailure',
  tableName: 'idp_login_failures',
  properties: {
    realm: p.string().primary(),
    /** `account`, `address` or `address-account` (LoginKeyKind). */
    kind: p.string().primary(),
    /**
     * The user's id; for a name no user has, `name:` and the name as typed (lower-cased); for an address, the address
     * key; for a name from an address, the address key, a space, and the account's subject.
     */
    subject: p.string().primary(),
    /** Set when the subject is an existing user: the admin API finds the row by it, and it goes with the user. */
    userId: p.uuid().nullable(),
    numFailures: p.integer(),
    /** The last counted attempt; the count restarts when the next one comes `maxDeltaTimeSeconds` later. */
    lastFailure: p.datetime(),
    /** Locked until then; null or past: not locked. */
    notBefore: p.datetime().nullable(),
    lockedPermanently: p.boolean(),
    lastAddress: p.string().nullable(),
  },
});
export type IdpLoginFailure = InferEntity<typeof IdpLoginFailure>;
