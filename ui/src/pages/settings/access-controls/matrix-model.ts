/**
 * Access controls, the pure part: the permission matrix (permission × role) as the API gives it, what each permission
 * allows, toggling a cell, whether it changed, and the PUT body (owners hold every permission and are never sent).
 * Exports: EDITABLE_ROLES, permissionHelp, Matrix, matrixOf, toggle, changedCells, putBody, permissionsOf.
 */
import type { AccessControls, Permission, Role } from '../settings-types';
import { ROLES } from '../members/member-model';

export const EDITABLE_ROLES = ['admin', 'member', 'viewer'] as const satisfies readonly Role[];
type EditableRole = (typeof EDITABLE_ROLES)[number];

export const permissionHelp: Record<string, string> = {
  manage_api_tokens: 'create, rotate and revoke their own API tokens',
  run_tests: 'start and cancel runs',
  manage_tests: 'create, edit and delete tests and load configurations',
  manage_machines: 'add, calibrate and delete machines',
  manage_webhooks: 'add, change, test and delete webhooks',
  manage_mcp_servers: 'attach remote MCP servers for ASK AI',
  manage_members: 'invite, re-role and remove members',
  manage_billing: 'rename the workspace and change its plan',
  view_audit_log: 'read the audit log',
};

/** role → set of permissions held. */
export type Matrix = Record<Role, ReadonlySet<string>>;

export function matrixOf(controls: AccessControls): Matrix {
  return {
    owner: new Set(controls.permissions),
    admin: new Set(controls.roles.admin),
    member: new Set(controls.roles.member),
    viewer: new Set(controls.roles.viewer),
  };
}

/** The matrix with one cell flipped; the owner column never changes. */
export function toggle(matrix: Matrix, role: Role, permission: string): Matrix {
  if (role === 'owner') return matrix;
  const next = new Set(matrix[role]);
  if (next.has(permission)) next.delete(permission);
  else next.add(permission);
  return { ...matrix, [role]: next };
}

/** The cells that differ from the saved matrix, as "role: permission granted/removed". */
export function changedCells(saved: Matrix, edited: Matrix, permissions: readonly string[]): string[] {
  const changes: string[] = [];
  for (const role of EDITABLE_ROLES) {
    for (const permission of permissions) {
      const before = saved[role].has(permission);
      const after = edited[role].has(permission);
      if (before !== after) changes.push(`${role}: ${permission} ${after ? 'granted' : 'removed'}`);
    }
  }
  return changes;
}

/** PUT /access-controls: the complete list of each editable role, in the API's permission order. */
export function putBody(edited: Matrix, permissions: readonly string[]): { roles: Record<EditableRole, Permission[]> } {
  const listOf = (role: EditableRole) => permissions.filter((permission) => edited[role].has(permission)) as Permission[];
  return { roles: { admin: listOf('admin'), member: listOf('member'), viewer: listOf('viewer') } };
}

export { ROLES };
