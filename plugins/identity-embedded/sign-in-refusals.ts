/** What the token endpoint answers, and the log line it writes, for each way a password sign-in can be refused. */
import { oauthError } from './oauth-responses.ts';
import type { SignInResult } from './password-sign-in.ts';
import type { RealmContext } from './realm-context.ts';

type Refusal = Extract<SignInResult, { ok: false }>;

/** RFC 9110 10.2.3: seconds until the client may try again. */
const retryAfter = (seconds: number | null): Record<string, string> => (seconds === null ? {} : { 'retry-after': String(seconds) });

/**
 * Keycloak's words where it has them ("Account temporarily disabled", "Account disabled"): clients that know
 * Keycloak recognise them. The per-address throttle, which Keycloak lacks, is a rate limit: 429 with Retry-After.
 */
export function tokenEndpointRefusal(refusal: Refusal): Response {
  switch (refusal.kind) {
    case 'refused':
      return oauthError(refusal.status, 'invalid_grant', refusal.description);
    case 'locked':
      if (refusal.subject === 'address') {
        return oauthError(
          429,
          'invalid_grant',
          'Too many failed logins from this address; try again later',
          retryAfter(refusal.retryAfterSeconds),
        );
      }
      return refusal.retryAfterSeconds === null
        ? oauthError(400, 'invalid_grant', 'Account disabled')
        : oauthError(400, 'invalid_grant', 'Account temporarily disabled', retryAfter(refusal.retryAfterSeconds));
    case 'busy':
      return oauthError(503, 'temporarily_unavailable', 'Too many logins in progress; try again shortly', retryAfter(refusal.retryAfterSeconds));
  }
}

/**
 * One info line per refusal. The name is logged only when it is a user's: a name that matches nobody may be a
 * password typed into the wrong field.
 */
export function logRefusal(ctx: RealmContext, flow: 'password grant' | 'browser sign-in', refusal: Refusal, address: string | null): void {
  const fields: Record<string, unknown> = { address };
  if (refusal.kind === 'refused') Object.assign(fields, { reason: refusal.description, username: refusal.username });
  else if (refusal.kind === 'locked') {
    Object.assign(fields, { reason: refusal.subject === 'account' ? 'account locked' : 'address throttled', retry_after: refusal.retryAfterSeconds });
  }
  else Object.assign(fields, { reason: 'password hashing at capacity' });
  ctx.logger.info(`${flow} refused`, fields);
}
