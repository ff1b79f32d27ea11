/** Issues and checks the realm's tokens: RS256 access, refresh and ID tokens with Keycloak's claims. */
import { base64url, compactVerify, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { IdpSession } from './entities/idp-session.ts';
import type { RealmKey } from './realm-key.ts';
import type { RealmUser } from './realm-users.ts';

export interface TokenServiceOptions {
  key: RealmKey;
  /** `${issuerBaseUrl}/realms/${realm}` */
  issuer: string;
  accessTokenLifetimeSeconds: number;
}

/** The token endpoint's answer, field for field as Keycloak writes it. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  refresh_token: string;
  token_type: 'Bearer';
  id_token?: string;
  'not-before-policy': 0;
  session_state: string;
  scope: string;
}

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  sid: string;
  azp: string;
  typ: 'Bearer';
  realm_access: { roles: string[] };
}

export interface RefreshTokenClaims extends JWTPayload {
  sub: string;
  sid: string;
  azp: string;
  typ: 'Refresh';
  scope: string;
}

export type RefreshCheck = { ok: true; claims: RefreshTokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

export interface IssueInput {
  user: RealmUser;
  session: IdpSession;
  scope: string;
  /** Adds an ID token (scope `openid`). */
  idToken: boolean;
  nonce?: string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The profile claims Keycloak's `profile` and `email` scopes put in tokens; absent values are left out, not null. */
function profileClaims(user: RealmUser): Record<string, unknown> {
  const name = [user.firstName, user.lastName].filter((part) => part).join(' ');
  return {
    email_verified: user.emailVerified,
    ...(name ? { name } : {}),
    preferred_username: user.username,
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
    ...(user.email ? { email: user.email } : {}),
  };
}

/** OIDC's at_hash: the left half of the access token's SHA-256, base64url. */
async function accessTokenHash(accessToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken)));
  return base64url.encode(digest.slice(0, digest.length / 2));
}

export function createTokenService(options: TokenServiceOptions) {
  const { key, issuer } = options;
  const header = { alg: key.alg, typ: 'JWT', kid: key.kid };

  const sign = (claims: Record<string, unknown>, expiresAt: number, issuedAt: number) =>
    new SignJWT(claims)
      .setProtectedHeader(header)
      .setIssuer(issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(crypto.randomUUID())
      .sign(key.privateKey);

  const verify = (token: string) => jwtVerify(token, key.publicKey, { issuer, algorithms: [key.alg] });

  return {
    issuer,

    profileClaims,

    async issue(input: IssueInput): Promise<TokenResponse> {
      const { user, session, scope } = input;
      const now = Math.floor(Date.now() / 1000);
      const sessionExpiry = seconds(session.expiresAt);
      // An access token never outlives its session.
      const accessExpiry = Math.min(now + options.accessTokenLifetimeSeconds, Math.max(sessionExpiry, now + 1));
      const common = { sub: user.id, azp: session.clientId, sid: session.id };
      const accessToken = await sign(
        {
          ...common,
          aud: 'account',
          typ: 'Bearer',
          acr: '1',
          realm_access: { roles: [...user.realmRoles] },
          resource_access: { account: { roles: ['manage-account', 'manage-account-links', 'view-profile'] } },
          scope,
          ...profileClaims(user),
        },
        accessExpiry,
        now,
      );
      const refreshToken = await sign({ ...common, aud: issuer, typ: 'Refresh', scope }, sessionExpiry, now);
      const response: TokenResponse = {
        access_token: accessToken,
        expires_in: accessExpiry - now,
        refresh_expires_in: Math.max(0, sessionExpiry - now),
        refresh_token: refreshToken,
        token_type: 'Bearer',
        'not-before-policy': 0,
        session_state: session.id,
        scope,
      };
      if (input.idToken) {
        response.id_token = await sign(
          {
            ...common,
            aud: session.clientId,
            typ: 'ID',
            auth_time: seconds(session.createdAt),
            ...(input.nonce ? { nonce: input.nonce } : {}),
            at_hash: await accessTokenHash(accessToken),
            acr: '1',
            ...profileClaims(user),
          },
          accessExpiry,
          now,
        );
      }
      return response;
    },

    /** The claims of a valid, unexpired access token of this realm; null for anything else. */
    async verifyAccessToken(token: string): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await verify(token);
        if (payload.typ !== 'Bearer' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return payload as AccessTokenClaims;
      } catch {
        return null;
      }
    },

    /** An ID token of ours as a logout hint: signature and issuer must hold; expiry may have passed (OIDC RP-initiated logout). */
    async verifyIdTokenHint(token: string): Promise<{ sid: string; azp: string } | null> {
      try {
        const { payload } = await compactVerify(token, key.publicKey, { algorithms: [key.alg] });
        const claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
        if (claims.iss !== issuer || claims.typ !== 'ID' || typeof claims.sid !== 'string' || typeof claims.azp !== 'string') {
          return null;
        }
        return { sid: claims.sid, azp: claims.azp };
      } catch {
        return null;
      }
    },

    async verifyRefreshToken(token: string): Promise<RefreshCheck> {
      try {
        const { payload } = await verify(token);
        if (payload.typ !== 'Refresh' || typeof payload.sid !== 'string' || typeof payload.azp !== 'string') {
          return { ok: false, reason: 'invalid' };
        }
        return { ok: true, claims: payload as RefreshTokenClaims };
      } catch (error) {
        return { ok: false, reason: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
