/** One audit-log entry: who did what to which target, when, in which workspace. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_log',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    action: p.string(),
    /** `user`, `token` or `system`. */
    actorType: p.string(),
    actorId: p.string().nullable(),
    actorLabel: p.string().nullable(),
    /** The user a token acted for. */
    actorUserId: p.uuid().nullable(),
    targetType: p.string(),
    targetId: p.string().nullable(),
    targetLabel: p.string().nullable(),
    details: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
