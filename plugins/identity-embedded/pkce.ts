/** PKCE (RFC 7636) with S256 only: `plain` would hand the code to anyone who sees the authorization request. */
import { base64url } from 'jose';
import { constantTimeEqualStrings } from './constant-time-equal.ts';

/** RFC 7636 4.1: 43-128 characters of the unreserved set. */
const VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
/** A base64url SHA-256: 43 characters. */
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const isCodeChallenge = (challenge: string) => CHALLENGE_PATTERN.test(challenge);

export async function s256Challenge(verifier: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

export async function verifyPkce(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER_PATTERN.test(verifier)) return false;
  return constantTimeEqualStrings(await s256Challenge(verifier), challenge);
}
