/** The workspace audit log port: a plugin's entry goes in through core's own writer, in the plugin's transaction. */
import type { WorkspaceAuditLog } from '../ports/workspace-audit-log.ts';
import { recordAudit } from './audit-log.ts';

export function createWorkspaceAuditLog(): WorkspaceAuditLog {
  return {
    record(tx, caller, action, target, details) {
      recordAudit(tx.em, caller, action, target, details);
    },
  };
}
