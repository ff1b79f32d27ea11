/** Access Controls: read and change which permissions each role holds in a workspace (owners only; owners keep everything). */
import { roles } from '../domain/entities/membership.ts';
import { RolePermissionOverride } from '../domain/entities/role-permission-override.ts';
import { effectiveRolePermissions, isPermission, permissions, type RolePermissionMap } from '../domain/permissions.ts';
import { badRequest } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';

export function createAccessControlService(deps: { db: Database; changes: ChangeFeed }) {
  async function read(workspaceId: string): Promise<Record<keyof RolePermissionMap, string[]>> {
    const overrides = await deps.db.fork().find(RolePermissionOverride, { workspaceId });
    const map = effectiveRolePermissions(Object.fromEntries(overrides.map((o) => [o.role, o.permissions])));
    return { owner: [...map.owner], admin: [...map.admin], member: [...map.member], viewer: [...map.viewer] };
  }

  return {
    async get(caller: Caller) {
      return { roles: await read(caller.workspace.workspaceId), permissions: [...permissions] };
    },

    async update(caller: Caller, changes: Record<string, string[]>) {
      const workspaceId = caller.workspace.workspaceId;
      for (const [role, granted] of Object.entries(changes)) {
        if (role === 'owner') throw badRequest('owners always hold every permission; their set cannot change', { field: 'roles.owner' });
        if (!(roles as readonly string[]).includes(role)) throw badRequest(`unknown role "${role}"`, { field: `roles.${role}` });
        const unknown = granted.filter((p) => !isPermission(p));
        if (unknown.length) {
          throw badRequest(`unknown permission ${unknown.join(', ')}; valid: ${permissions.join(', ')}`, { field: `roles.${role}` });
        }
      }
      const before = await read(workspaceId);
      await deps.db.fork().transactional(async (tx) => {
        for (const [role, granted] of Object.entries(changes)) {
          await tx.upsert(RolePermissionOverride, {
            workspaceId,
            role,
            permissions: [...new Set(granted)].sort(),
            updatedAt: new Date(),
          });
        }
        recordAudit(tx, caller, 'access_controls.updated', { type: 'workspace', id: workspaceId }, { before, changes });
      });
      await deps.changes.publish({ kind: 'workspace', workspaceId });
      return { roles: await read(workspaceId), permissions: [...permissions] };
    },
  };
}

export type AccessControlService = ReturnType<typeof createAccessControlService>;
