/**
 * The audit log's filters (action, actor), read from and written to the URL query, and how an entry reads.
 * GET /audit-log takes only ?limit= and ?cursor=, so the filters apply to the entries loaded so far.
 * Exports: AuditFilters, readAuditFilters, hasAuditFilters, matchesAudit, actorText, targetText, detailsText, actionsOf.
 */
import type { AuditEntry } from '../settings/settings-types';

export interface AuditFilters {
  /** An exact action ("webhook.created") or a family ending in "." ("webhook."). */
  action: string;
  /** Part of the actor's name or id, case-insensitive. */
  actor: string;
}

export function readAuditFilters(params: URLSearchParams): AuditFilters {
  return { action: params.get('action') ?? '', actor: params.get('actor') ?? '' };
}

export function hasAuditFilters(filters: AuditFilters): boolean {
  return Boolean(filters.action || filters.actor.trim());
}

export function actorText(entry: Pick<AuditEntry, 'actor'>): string {
  const { actor } = entry;
  const name = actor.label || actor.id || actor.type;
  return actor.type === 'token' ? `${name} (API token)` : actor.type === 'user' || actor.type === name ? name : `${name} (${actor.type})`;
}

export function targetText(entry: Pick<AuditEntry, 'target'>): string {
  const { target } = entry;
  const name = target.label || target.id;
  return name ? `${target.type.replace(/_/g, ' ')} ${name}` : target.type.replace(/_/g, ' ');
}

/** The details as short "key: value" pairs (nested values as JSON), or "" when there are none. */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

export function matchesAudit(entry: AuditEntry, filters: AuditFilters): boolean {
  if (filters.action) {
    const family = filters.action.endsWith('.');
    if (family ? !entry.action.startsWith(filters.action) : entry.action !== filters.action) return false;
  }
  const actor = filters.actor.trim().toLowerCase();
  if (actor) {
    const haystack = [entry.actor.label, entry.actor.id, entry.actor.user_id, entry.actor.type].filter(Boolean).join(' ').toLowerCase();
    if (!haystack.includes(actor)) return false;
  }
  return true;
}

/** The actions to offer: the families ("webhook.") and the actions seen, sorted, plus the chosen one. */
export function actionsOf(entries: readonly Pick<AuditEntry, 'action'>[], chosen = ''): { families: string[]; actions: string[] } {
  const actions = new Set(entries.map((entry) => entry.action));
  if (chosen && !chosen.endsWith('.')) actions.add(chosen);
  const families = new Set([...actions].filter((action) => action.includes('.')).map((action) => `${action.slice(0, action.indexOf('.'))}.`));
  if (chosen.endsWith('.')) families.add(chosen);
  return { families: [...families].sort(), actions: [...actions].sort() };
}
