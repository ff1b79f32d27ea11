/** The token-verifier capability: turns a bearer JWT into a verified identity, or refuses it. */
import { defineCapability } from '../kernel/define-capability.ts';

export interface VerifiedIdentity {
  /** The provider's subject: the user's id there. */
  sub: string;
  email: string | null;
  /** The provider's `email_verified` claim; absent counts as not verified. */
  email_verified?: boolean;
  name: string | null;
  preferred_username: string | null;
  /** Realm roles from `realm_access.roles`. */
  roles: string[];
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export interface TokenVerifier {
  /** Resolves the identity or throws a DomainError `unauthorized` / `token_expired`. */
  verify(token: string): Promise<VerifiedIdentity>;
}

export const tokenVerifierCapability = defineCapability<TokenVerifier>({
  id: 'core.tokenVerifier',
  cardinality: 'one',
});
