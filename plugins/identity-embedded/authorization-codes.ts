/** Authorization codes: issued after a browser sign-in, redeemed once at the token endpoint within 60 seconds. */
import { base64url } from 'jose';
import { IdpAuthorizationCode } from './entities/idp-authorization-code.ts';
import type { DatabaseLike } from './realm-users.ts';

/** Keycloak's default "Client login timeout". */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;

export interface NewAuthorizationCode {
  sessionId: string;
  userId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce?: string;
  scope: string;
}

export type Redemption =
  | { ok: true; code: IdpAuthorizationCode }
  | { ok: false; reason: 'unknown' | 'expired' }
  | { ok: false; reason: 'reused'; sessionId: string };

const digest = async (code: string) =>
  base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code))));

export function createAuthorizationCodeStore(db: DatabaseLike, realm: string) {
  return {
    /** Returns the code to hand to the browser; only its digest is stored. */
    async issue(input: NewAuthorizationCode): Promise<string> {
      const code = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
      const now = new Date();
      const em = db.fork();
      em.create(IdpAuthorizationCode, {
        codeHash: await digest(code),
        realm,
        ...input,
        nonce: input.nonce ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
        consumedAt: null,
      });
      await em.flush();
      return code;
    },

    /** Marks the code used in one conditional update, so two concurrent redemptions cannot both succeed. */
    async redeem(code: string): Promise<Redemption> {
      if (code.length === 0 || code.length > 256) return { ok: false, reason: 'unknown' };
      const codeHash = await digest(code);
      const now = new Date();
      const claimed = await db
        .fork()
        .nativeUpdate(IdpAuthorizationCode, { codeHash, realm, consumedAt: null }, { consumedAt: now });
      const row = await db.fork().findOne(IdpAuthorizationCode, { codeHash, realm });
      if (!row) return { ok: false, reason: 'unknown' };
      if (claimed === 0) return { ok: false, reason: 'reused', sessionId: row.sessionId };
      if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, code: row };
    },
  };
}

export type AuthorizationCodeStore = ReturnType<typeof createAuthorizationCodeStore>;
