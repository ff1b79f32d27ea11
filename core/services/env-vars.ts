/**
 * A workspace's environment variables: set (create or replace), list (keys and who changed them, never values),
 * delete. Values are sealed with the service's SECRET_KEY; they leave the database only for the agents that run the
 * workspace's tasks and for the log masker. Workspace-scoped and audit-logged (never with the value).
 */
import { checkEnvKey, checkEnvValue, envKeyFormatProblem, maxEnvVarsPerWorkspace } from '../domain/env-var-rules.ts';
import type { SecretBox } from '../domain/secret-box.ts';
import { createMasker, type Masker } from '../domain/secret-masking.ts';
import { DomainError, notFound } from '../kernel/errors.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import { actorOf, type Caller } from './caller.ts';
import { sqlOf, transaction } from './sql.ts';
import { lockWorkspace } from './workspace-scope.ts';

export interface EnvVarRow {
  id: string;
  key: string;
  created_at: Date | string;
  updated_at: Date | string;
  updated_by: { type: string; id: string | null; label: string | null; user_id: string | null };
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toEnvVarView(row: EnvVarRow) {
  return { key: row.key, created_at: iso(row.created_at), updated_at: iso(row.updated_at), updated_by: row.updated_by };
}

interface Page {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

/** How long a replica keeps a workspace's masker before reading the values again (other replicas' changes). */
const maskerTtlMillis = 2_000;

export function createEnvVarService(deps: { db: Database; secrets: SecretBox; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  const maskers = new Map<string, { at: number; masker: Promise<Masker | null> }>();

  async function values(workspaceId: string): Promise<Record<string, string>> {
    const rows = await sqlOf(deps.db).all<{ key: string; value_box: string }>(
      'select key, value_box from env_vars where workspace_id = ? order by key',
      [workspaceId],
    );
    const env: Record<string, string> = {};
    for (const row of rows) env[row.key] = await deps.secrets.open(row.value_box);
    return env;
  }

  const updatedBy = (caller: Caller) => {
    const actor = actorOf(caller);
    return { type: actor.actorType, id: actor.actorId, label: actor.actorLabel, user_id: actor.actorUserId };
  };

  return {
    async list(caller: Caller, page: Page) {
      const after = page.after;
      const rows = await sqlOf(deps.db).all<EnvVarRow>(
        `select id, key, created_at, updated_at, updated_by from env_vars where workspace_id = ?${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },

    /** Creates or replaces `key`; `created` tells which (201 or 200). */
    async put(caller: Caller, key: string, value: string): Promise<{ row: EnvVarRow; created: boolean }> {
      checkEnvKey(key);
      checkEnvValue(value);
      const sealed = await deps.secrets.seal(value);
      const workspaceId = caller.workspace.workspaceId;
      const result = await transaction(deps.db, async (tx) => {
        // The workspace row's lock serialises creations, so the count limit holds under concurrent PUTs.
        await lockWorkspace(tx.em, workspaceId);
        const [existing] = await tx.all<{ id: string }>('select id from env_vars where workspace_id = ? and key = ?', [workspaceId, key]);
        const at = now();
        const by = JSON.stringify(updatedBy(caller));
        let row: EnvVarRow;
        if (existing) {
          [row] = (await tx.all<EnvVarRow>(
            `update env_vars set value_box = ?, updated_at = ?, updated_by = ?::jsonb where id = ?
             returning id, key, created_at, updated_at, updated_by`,
            [sealed, at, by, existing.id],
          )) as [EnvVarRow];
        } else {
          const [{ count }] = (await tx.all<{ count: number }>('select count(*)::int as count from env_vars where workspace_id = ?', [workspaceId])) as [
            { count: number },
          ];
          if (count >= maxEnvVarsPerWorkspace) {
            throw new DomainError('bad_request', `a workspace may hold at most ${maxEnvVarsPerWorkspace} environment variables; delete one first`, {
              field: 'key',
            });
          }
          [row] = (await tx.all<EnvVarRow>(
            `insert into env_vars (id, workspace_id, key, value_box, created_at, updated_at, updated_by)
             values (?, ?, ?, ?, ?, ?, ?::jsonb) returning id, key, created_at, updated_at, updated_by`,
            [crypto.randomUUID(), workspaceId, key, sealed, at, at, by],
          )) as [EnvVarRow];
        }
        // The value never goes into the audit log; its length would hint at it too.
        recordAudit(tx.em, caller, existing ? 'env_var.updated' : 'env_var.created', { type: 'env_var', id: row.id, label: key });
        return { row, created: !existing };
      });
      maskers.delete(workspaceId);
      return result;
    },

    async remove(caller: Caller, key: string): Promise<void> {
      // A malformed name cannot exist: simply not found, like a malformed id. A reserved one may have been stored before
      // its rule; it must stay deletable.
      if (envKeyFormatProblem(key) !== null) throw notFound('environment variable');
      const workspaceId = caller.workspace.workspaceId;
      await transaction(deps.db, async (tx) => {
        const [row] = await tx.all<{ id: string }>('delete from env_vars where workspace_id = ? and key = ? returning id', [workspaceId, key]);
        if (!row) throw notFound('environment variable');
        recordAudit(tx.em, caller, 'env_var.deleted', { type: 'env_var', id: row.id, label: key });
      });
      maskers.delete(workspaceId);
    },

    /** Every variable of the workspace in clear text: for the assignment an agent receives, nothing else. */
    valuesFor: values,

    /** The log masker of a workspace (null: nothing to mask), cached for a moment per replica. */
    maskerFor(workspaceId: string): Promise<Masker | null> {
      const cached = maskers.get(workspaceId);
      if (cached && Date.now() - cached.at < maskerTtlMillis) return cached.masker;
      const masker = values(workspaceId).then((env) => createMasker(Object.values(env)));
      // A failed read is not cached: the next batch tries again.
      masker.catch(() => maskers.delete(workspaceId));
      if (maskers.size > 10_000) maskers.clear();
      maskers.set(workspaceId, { at: Date.now(), masker });
      return masker;
    },
  };
}

export type EnvVarService = ReturnType<typeof createEnvVarService>;
