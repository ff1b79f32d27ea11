/**
 * Authenticates `psk_` tokens: checksum first (no lookup for typos), then a cached hash lookup; revocation and rotation
 * evict at once, a resync of the change feed empties the cache, and an address with too many failed lookups is refused
 * before it costs another query.
 */
import { limitsOf } from '../domain/plans.ts';
import { hashApiToken, hasValidChecksum } from '../domain/api-token-format.ts';
import { ApiToken } from '../domain/entities/api-token.ts';
import type { Scope } from '../domain/scopes.ts';
import { DomainError, notFound, unauthorized } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import type { Caller } from './caller.ts';
import { createFailedLookupLimiter, type FailedLookupLimiterOptions } from './failed-lookup-limiter.ts';
import type { CallerResolver } from './caller-resolver.ts';
import type { LastUsedRecorder } from './last-used-recorder.ts';

interface TokenRecord {
  id: string;
  name: string;
  workspaceId: string;
  userId: string;
  scopes: Scope[];
  expiresAt: number | null;
}

interface CacheEntry {
  record: TokenRecord | null;
  until: number;
}

export interface ApiTokenAuthenticatorOptions {
  db: Database;
  callers: CallerResolver;
  changes: ChangeFeed;
  lastUsed: LastUsedRecorder;
  /** Backstop lifetime of a cached lookup; the change feed evicts revoked and rotated secrets at once. */
  cacheMillis?: number;
  maxEntries?: number;
  /** Failed lookups per client address and minute before it is refused (429) without a lookup. */
  failedLookups?: FailedLookupLimiterOptions;
  now?: () => number;
}

export function createApiTokenAuthenticator(options: ApiTokenAuthenticatorOptions) {
  const cacheMillis = options.cacheMillis ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();
  const failures = createFailedLookupLimiter({ now, ...options.failedLookups });
  /** Bumped by every eviction: a lookup that read the database before an eviction must not cache what it read. */
  let evictions = 0;

  options.changes.subscribe((change) => {
    if (change.kind === 'token') cache.delete(change.secretHash);
    // Notices were lost while the feed's connection was down: any cached answer may be a revoked token's.
    else if (change.kind === 'all') cache.clear();
    else return;
    evictions++;
  });

  const cached = (secretHash: string) => {
    const entry = cache.get(secretHash);
    return entry && entry.until > now() ? entry : null;
  };

  async function lookup(secretHash: string): Promise<TokenRecord | null> {
    const before = evictions;
    const row = await options.db.fork().findOne(ApiToken, { secretHash, revokedAt: null });
    const record = row
      ? {
          id: row.id,
          name: row.name,
          workspaceId: row.workspaceId,
          userId: row.userId,
          scopes: row.scopes as Scope[],
          expiresAt: row.expiresAt?.getTime() ?? null,
        }
      : null;
    // A revocation that landed while we read may have been published before our answer: caching it would outlive it.
    if (before === evictions) {
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(secretHash, { record, until: now() + cacheMillis });
    }
    return record;
  }

  return {
    /** `clientAddress`: the peer's address when known; failed lookups are limited per address. */
    async authenticate(token: string, requestedWorkspaceId: string | null, clientAddress: string | null = null): Promise<Caller> {
      if (!hasValidChecksum(token)) throw unauthorized('malformed API token (checksum mismatch): check for a copy error');
      const secretHash = await hashApiToken(token);
      const entry = cached(secretHash);
      let record: TokenRecord | null;
      // A token we know to be valid costs no query, so it passes even from an address that is being refused.
      if (entry?.record) record = entry.record;
      else {
        const wait = clientAddress ? failures.retryAfterSeconds(clientAddress) : 0;
        if (wait > 0) {
          throw new DomainError(
            'too_many_failed_lookups',
            `too many unknown or revoked API tokens from this address; try again in ${wait} s`,
            { retryAfterSeconds: wait },
          );
        }
        record = entry ? null : await lookup(secretHash);
      }
      if (!record) {
        if (clientAddress) failures.recordFailure(clientAddress);
        throw unauthorized('unknown or revoked API token');
      }
      if (record.expiresAt !== null && record.expiresAt <= now()) {
        throw new DomainError('token_expired', 'API token expired');
      }
      // A token acts only in the workspace where it was created.
      if (requestedWorkspaceId && requestedWorkspaceId.toLowerCase() !== record.workspaceId) throw notFound('workspace');
      const user = await options.callers.forUserInWorkspace(record.userId, record.workspaceId);
      if (!user) throw unauthorized("the API token's owner is no longer a member of its workspace");
      if (limitsOf(user.workspace.plan).apiTokensPerUser === 0) {
        throw new DomainError('plan_no_api_access', `the ${user.workspace.plan} plan includes no API access`);
      }
      options.lastUsed.touch(record.id);
      return { ...user, token: { id: record.id, name: record.name, scopes: record.scopes } };
    },
  };
}

export type ApiTokenAuthenticator = ReturnType<typeof createApiTokenAuthenticator>;
