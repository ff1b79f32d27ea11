/** Writes audit entries inside the caller's unit of work, so an entry lands exactly when its change does. */
import type { EntityManager } from '@mikro-orm/core';
import { AuditEntry } from '../domain/entities/audit-entry.ts';
import { actorOf, type Caller } from './caller.ts';
import { isUuid } from './workspace-scope.ts';

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

/** Narrows the audit log: one action (exact, e.g. `test.created`) and/or one actor (its id or, case-insensitively, its label). */
export interface AuditFilter {
  action?: string;
  actor?: string;
}

export async function listAudit(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; filter: object },
  filter: AuditFilter = {},
): Promise<AuditEntry[]> {
  const conditions: object[] = [page.filter];
  if (filter.action) conditions.push({ action: filter.action });
  if (filter.actor) {
    const actor = filter.actor;
    const byUser = isUuid(actor) ? [{ actorUserId: actor.toLowerCase() }] : [];
    conditions.push({ $or: [{ actorId: actor }, ...byUser, { actorLabel: { $ilike: actor.replace(/[\\%_]/g, (c) => `\\${c}`) } }] });
  }
  return em.find(
    AuditEntry,
    { workspaceId, $and: conditions },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
  );
}
