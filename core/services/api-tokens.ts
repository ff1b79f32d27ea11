/** API-token use cases: create (plaintext shown once), list, revoke and rotate a user's personal tokens. */
import { type EntityManager, LockMode } from '@mikro-orm/core';
import { limitsOf } from '../domain/plans.ts';
import { generateApiToken, hashApiToken, tokenHint } from '../domain/api-token-format.ts';
import { ApiToken } from '../domain/entities/api-token.ts';
import { isScope, scopes as allScopes } from '../domain/scopes.ts';
import { badRequest, conflict, DomainError } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import type { PageFilter } from './machines.ts';
import { findInWorkspace, lockWorkspace } from './workspace-scope.ts';

export interface TokenInput {
  name: string;
  scopes?: string[];
  expires_at?: string | null;
}

/** Longest allowed lifetime of a token with an expiry; `null` means it never expires. */
const maxLifetimeMillis = 5 * 366 * 24 * 3600 * 1000;

function parseExpiry(value: string | null | undefined, now: Date): Date | null {
  if (value === undefined || value === null) return null;
  const expiresAt = new Date(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(expiresAt.getTime())) {
    throw badRequest('expires_at must be an ISO 8601 timestamp such as 2027-01-31T00:00:00Z', { field: 'expires_at' });
  }
  if (expiresAt.getTime() <= now.getTime()) throw badRequest('expires_at must be in the future', { field: 'expires_at' });
  if (expiresAt.getTime() - now.getTime() > maxLifetimeMillis) {
    throw badRequest('expires_at may be at most 5 years ahead; omit it for a token that never expires', { field: 'expires_at' });
  }
  return expiresAt;
}

function parseScopes(values: string[] | undefined): string[] {
  const unique = [...new Set(values ?? [])];
  const unknown = unique.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw badRequest(`unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; valid scopes: ${allScopes.join(', ')}`, {
      field: 'scopes',
    });
  }
  return unique.sort();
}

export function toApiTokenView(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    created_at: token.createdAt.toISOString(),
    rotated_at: token.rotatedAt?.toISOString() ?? null,
    prefix: token.secretHint,
    user_id: token.userId,
  };
}

export function createApiTokenService(deps: { db: Database; changes: ChangeFeed }) {
  /**
   * Tokens are personal: one's own live token, or not found. Read under a row lock, so a revoke and a rotate of one
   * token run one after the other: the second sees what the first wrote (a rotate after a revoke finds nothing, a revoke
   * after a rotate revokes the new secret), and no secret outlives a revocation.
   */
  const lockOwnToken = (em: EntityManager, caller: Caller, id: string) =>
    findInWorkspace(em, ApiToken, caller.workspace.workspaceId, id, 'API token', { userId: caller.userId, revokedAt: null }, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });

  return {
    async list(caller: Caller, page: PageFilter): Promise<ApiToken[]> {
      return deps.db
        .fork()
        .find(
          ApiToken,
          { workspaceId: caller.workspace.workspaceId, userId: caller.userId, revokedAt: null, ...page.filter },
          { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
        );
    },

    async create(caller: Caller, input: TokenInput): Promise<{ record: ApiToken; plaintext: string }> {
      const now = new Date();
      const name = input.name.trim();
      if (!name) throw badRequest('name must not be blank', { field: 'name' });
      const scopes = parseScopes(input.scopes);
      const expiresAt = parseExpiry(input.expires_at, now);
      const limit = limitsOf(caller.workspace.plan).apiTokensPerUser;
      if (limit === 0) {
        throw new DomainError('plan_limit_api_tokens', `the ${caller.workspace.plan} plan includes no API access`);
      }
      const plaintext = generateApiToken();
      const secretHash = await hashApiToken(plaintext);
      const record = await deps.db.fork().transactional(async (tx) => {
        await lockWorkspace(tx, caller.workspace.workspaceId);
        const active = await tx.count(ApiToken, {
          workspaceId: caller.workspace.workspaceId,
          userId: caller.userId,
          revokedAt: null,
          $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
        });
        if (active >= limit) {
          throw new DomainError(
            'plan_limit_api_tokens',
            `the ${caller.workspace.plan} plan allows ${limit} API token${limit === 1 ? '' : 's'} per user; revoke one first`,
          );
        }
        const created = tx.create(ApiToken, {
          id: crypto.randomUUID(),
          workspaceId: caller.workspace.workspaceId,
          userId: caller.userId,
          name,
          scopes,
          secretHash,
          secretHint: tokenHint(plaintext),
          expiresAt,
          lastUsedAt: null,
          revokedAt: null,
          createdAt: now,
          rotatedAt: null,
        });
        recordAudit(tx, caller, 'api_token.created', { type: 'api_token', id: created.id, label: name }, { scopes, expires_at: expiresAt?.toISOString() ?? null });
        return created;
      });
      return { record, plaintext };
    },

    async revoke(caller: Caller, id: string): Promise<void> {
      const secretHash = await deps.db.fork().transactional(async (tx) => {
        const token = await lockOwnToken(tx, caller, id);
        token.revokedAt = new Date();
        recordAudit(tx, caller, 'api_token.revoked', { type: 'api_token', id: token.id, label: token.name });
        return token.secretHash;
      });
      await deps.changes.publish({ kind: 'token', secretHash });
    },

    async rotate(caller: Caller, id: string): Promise<{ record: ApiToken; plaintext: string }> {
      const plaintext = generateApiToken();
      const secretHash = await hashApiToken(plaintext);
      const { record, oldHash } = await deps.db.fork().transactional(async (tx) => {
        const token = await lockOwnToken(tx, caller, id);
        if (token.expiresAt && token.expiresAt.getTime() <= Date.now()) {
          throw conflict('this API token has expired; rotation keeps the expiry, so create a new token instead');
        }
        const previous = token.secretHash;
        token.secretHash = secretHash;
        token.secretHint = tokenHint(plaintext);
        token.rotatedAt = new Date();
        recordAudit(tx, caller, 'api_token.rotated', { type: 'api_token', id: token.id, label: token.name });
        return { record: token, oldHash: previous };
      });
      await deps.changes.publish({ kind: 'token', secretHash: oldHash });
      return { record, plaintext };
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
