/** The workspace audit log port: a plugin's entry goes into core's audit_log with the plugin's own transaction. */
import type { WorkspaceAuditLog } from '../ports/workspace-audit-log.ts';
import { actorOf } from './caller.ts';

export function createWorkspaceAuditLog(): WorkspaceAuditLog {
  return {
    async record(tx, caller, action, target, details = {}) {
      const actor = actorOf(caller);
      await tx.all(
        `insert into audit_log (id, workspace_id, action, actor_type, actor_id, actor_label, actor_user_id, target_type, target_id, target_label, details, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
        [
          crypto.randomUUID(),
          caller.workspace.workspaceId,
          action,
          actor.actorType,
          actor.actorId,
          actor.actorLabel,
          actor.actorUserId,
          target.type,
          target.id ?? null,
          target.label ?? null,
          JSON.stringify(details),
          new Date(),
        ],
      );
    },
  };
}
