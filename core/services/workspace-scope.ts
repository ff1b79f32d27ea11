/** Workspace-scoped lookups: every tenant-owned row is found through its workspace, and a foreign or malformed id is simply not found. */
import type { EntityManager, EntityName, FilterQuery, LockMode } from '@mikro-orm/core';
import { notFound } from '../kernel/errors.ts';
import { sqlIn } from './sql.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => uuidPattern.test(value);

export async function findInWorkspace<Entity extends { id: string; workspaceId: string }>(
  em: EntityManager,
  entity: EntityName<Entity>,
  workspaceId: string,
  id: string,
  what: string,
  extra: FilterQuery<Entity> = {} as FilterQuery<Entity>,
  options: { lockMode?: LockMode } = {},
): Promise<Entity> {
  // A malformed id cannot exist; answering 404 (not 400) keeps ids opaque.
  if (!isUuid(id)) throw notFound(what);
  const row = await em.findOne(entity, { ...(extra as object), id: id.toLowerCase(), workspaceId } as FilterQuery<Entity>, options);
  if (!row) throw notFound(what);
  return row as Entity;
}

/**
 * Locks the workspace's row until the transaction ends. Counting against a plan limit and then inserting is exact only
 * under it: concurrent requests (or replicas) each counting one below the limit would all insert. FOR NO KEY UPDATE,
 * not FOR UPDATE: it serializes the limit checks but not the foreign-key checks of rows inserted elsewhere in the
 * workspace (an audit entry takes a key-share lock on it), which would otherwise deadlock against a checker that
 * waits for a row such a writer holds.
 */
export async function lockWorkspace(tx: EntityManager, workspaceId: string): Promise<void> {
  await sqlIn(tx).all('select id from workspaces where id = ? for no key update', [workspaceId]);
}
