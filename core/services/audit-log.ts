/** Writes audit entries inside the caller's unit of work, so an entry lands exactly when its change does. */
import type { EntityManager } from '@mikro-orm/core';
import { AuditEntry } from '../domain/entities/audit-entry.ts';
import { actorOf, type Caller } from './caller.ts';

export interface AuditTarget {
  type: string;
  id?: string | null;
  label?: string | null;
}

export function recordAudit(
  em: EntityManager,
  caller: Caller,
  action: string,
  target: AuditTarget,
  details: Record<string, unknown> = {},
): void {
  em.create(AuditEntry, {
    id: crypto.randomUUID(),
    workspaceId: caller.workspace.workspaceId,
    action,
    ...actorOf(caller),
    targetType: target.type,
    targetId: target.id ?? null,
    targetLabel: target.label ?? null,
    details,
    createdAt: new Date(),
  });
}

export function toAuditView(entry: AuditEntry) {
  return {
    id: entry.id,
    action: entry.action,
    actor: {
      type: entry.actorType,
      id: entry.actorId ?? null,
      label: entry.actorLabel ?? null,
      user_id: entry.actorUserId ?? null,
    },
    target: { type: entry.targetType, id: entry.targetId ?? null, label: entry.targetLabel ?? null },
    details: entry.details,
    time: entry.createdAt.toISOString(),
    workspace_id: entry.workspaceId,
  };
}

export async function listAudit(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; filter: object },
): Promise<AuditEntry[]> {
  return em.find(
    AuditEntry,
    { workspaceId, ...page.filter },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
  );
}
