/** Permissions and their default grant per role ("Access Controls"); a workspace may change the map, except for owners. */
import type { Role } from './roles.ts';

export const permissions = [
  'manage_api_tokens',
  'run_tests',
  'manage_tests',
  'manage_machines',
  'manage_webhooks',
  // Remote MCP servers: their headers are credentials, and their tools act with them.
  'manage_mcp_servers',
  'manage_members',
  'manage_billing',
  'view_audit_log',
] as const;
export type Permission = (typeof permissions)[number];

export const isPermission = (value: string): value is Permission => (permissions as readonly string[]).includes(value);

export type RolePermissionMap = Record<Role, readonly Permission[]>;

export const defaultRolePermissions: RolePermissionMap = {
  // Owners always hold everything: a workspace can never lock itself out.
  owner: permissions,
  // Admins run the workspace day to day; the plan and its bill stay with the owners.
  admin: permissions.filter((permission) => permission !== 'manage_billing'),
  member: ['run_tests', 'manage_tests', 'manage_machines'],
  viewer: [],
};

/** The effective map: the workspace's overrides on top of the defaults, owners pinned to everything. */
export function effectiveRolePermissions(overrides: Partial<Record<Role, readonly string[]>>): RolePermissionMap {
  const pick = (role: Role) => (overrides[role] ?? defaultRolePermissions[role]).filter(isPermission);
  return { owner: permissions, admin: pick('admin'), member: pick('member'), viewer: pick('viewer') };
}
