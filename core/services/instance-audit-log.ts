/** The instance audit log port over core's audit_log: system entries in the first (bootstrap) workspace. */
import { AuditEntry } from '../domain/entities/audit-entry.ts';
import { Workspace } from '../domain/entities/workspace.ts';
import type { InstanceAuditLog } from '../ports/instance-audit-log.ts';
import type { Database } from '../ports/database.ts';

export function createInstanceAuditLog(db: Database): InstanceAuditLog {
  return {
    async recordForInstance(entry) {
      const em = db.fork();
      const workspace = await em.findOne(Workspace, { isBootstrap: true });
      if (!workspace) return;
      em.create(AuditEntry, {
        id: crypto.randomUUID(),
        workspaceId: workspace.id,
        action: entry.action,
        actorType: 'system',
        actorId: null,
        actorLabel: entry.actorLabel,
        actorUserId: null,
        targetType: entry.target.type,
        targetId: entry.target.id ?? null,
        targetLabel: entry.target.label ?? null,
        details: entry.details ?? {},
        createdAt: new Date(),
      });
      await em.flush();
    },
  };
}
