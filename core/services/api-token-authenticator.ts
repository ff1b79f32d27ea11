/** Authenticates `psk_` tokens: checksum first (no lookup for typos), then a cached hash lookup; revocation and rotation evict at once. */
import { limitsOf } from '../../config/plans.ts';
import { hashApiToken, hasValidChecksum } from '../domain/api-token-format.ts';
import { ApiToken } from '../domain/entities/api-token.ts';
import type { Scope } from '../domain/scopes.ts';
import { DomainError, notFound, unauthorized } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import type { Caller } from './caller.ts';
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
  now?: () => number;
}

export function createApiTokenAuthenticator(options: ApiTokenAuthenticatorOptions) {
  const cacheMillis = options.cacheMillis ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CacheEntry>();

  options.changes.subscribe((change) => {
    if (change.kind === 'token') cache.delete(change.secretHash);
  });

  async function lookup(secretHash: string): Promise<TokenRecord | null> {
    const cached = cache.get(secretHash);
    if (cached && cached.until > now()) return cached.record;
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
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(secretHash, { record, until: now() + cacheMillis });
    return record;
  }

  return {
    async authenticate(token: string, requestedWorkspaceId: string | null): Promise<Caller> {
      if (!hasValidChecksum(token)) throw unauthorized('malformed API token (checksum mismatch): check for a copy error');
      const record = await lookup(await hashApiToken(token));
      if (!record) throw unauthorized('unknown or revoked API token');
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
