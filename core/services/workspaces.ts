/** The caller's workspace: its plan, limits and the caller's rights; renaming and changing the plan. */
import { limitsOf, planLimits, type PlanName } from '../domain/plans.ts';
import { Membership } from '../domain/entities/membership.ts';
import { Workspace } from '../domain/entities/workspace.ts';
import { badRequest } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';

export function createWorkspaceService(deps: { db: Database; changes: ChangeFeed }) {
  const view = (workspace: Workspace, caller: Caller) => ({
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    status: workspace.status,
    limits: { ...limitsOf(workspace.plan) },
    role: caller.workspace.role,
    permissions: [...caller.workspace.permissions],
    created_at: workspace.createdAt.toISOString(),
  });

  return {
    /**
     * The workspaces the caller may act in, oldest membership first (the one a request without X-Workspace-Id acts
     * in): all of a signed-in user's, only its own for an API token (a token acts only where it was created).
     */
    async mine(caller: Caller) {
      const em = deps.db.fork();
      const memberships = caller.token
        ? [{ workspaceId: caller.workspace.workspaceId, role: caller.workspace.role }]
        : await em.find(Membership, { userId: caller.userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      const workspaces = await em.find(Workspace, { id: { $in: memberships.map((m) => m.workspaceId) } });
      const byId = new Map(workspaces.map((w) => [w.id, w]));
      return memberships.flatMap((m) => {
        const workspace = byId.get(m.workspaceId);
        if (!workspace) return [];
        return [{ id: workspace.id, name: workspace.name, plan: workspace.plan, role: m.role, current: workspace.id === caller.workspace.workspaceId }];
      });
    },

    async get(caller: Caller) {
      const workspace = await deps.db.fork().findOneOrFail(Workspace, { id: caller.workspace.workspaceId });
      return view(workspace, caller);
    },

    async update(caller: Caller, changes: { name?: string; plan?: string }) {
      const em = deps.db.fork();
      const workspace = await em.findOneOrFail(Workspace, { id: caller.workspace.workspaceId });
      const before = { name: workspace.name, plan: workspace.plan };
      if (changes.name !== undefined) {
        if (!changes.name.trim()) throw badRequest('name must not be blank', { field: 'name' });
        workspace.name = changes.name.trim();
      }
      if (changes.plan !== undefined) {
        if (!(changes.plan in planLimits)) {
          throw badRequest(`plan must be one of ${Object.keys(planLimits).join(', ')}`, { field: 'plan' });
        }
        workspace.plan = changes.plan as PlanName;
      }
      recordAudit(em, caller, 'workspace.updated', { type: 'workspace', id: workspace.id, label: workspace.name }, { before, after: changes });
      await em.flush();
      await deps.changes.publish({ kind: 'workspace', workspaceId: workspace.id });
      return view(workspace, { ...caller, workspace: { ...caller.workspace, plan: workspace.plan } });
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
