/** Creates the first workspace once (plan enterprise), waiting for the bootstrap admin to claim it at first sign-in. */
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Workspace } from '../domain/entities/workspace.ts';
import type { Database } from '../ports/database.ts';

export async function ensureBootstrapWorkspace(db: Database, ownerUsername: string | null): Promise<Workspace> {
  const em = db.fork();
  const existing = await em.findOne(Workspace, { isBootstrap: true });
  if (existing) return existing;
  const workspace = em.create(Workspace, {
    id: crypto.randomUUID(),
    name: 'Default workspace',
    plan: 'enterprise',
    status: 'active',
    pendingOwnerUsername: ownerUsername,
    isBootstrap: true,
    createdAt: new Date(),
  });
  try {
    await em.flush();
    return workspace;
  } catch (error) {
    // Another replica created it first (a partial unique index allows one bootstrap workspace).
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    return (await db.fork().findOneOrFail(Workspace, { isBootstrap: true })) as Workspace;
  }
}
