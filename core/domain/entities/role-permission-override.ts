/** A workspace's change to the default permissions of one role (Access Controls). */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const RolePermissionOverride = defineEntity({
  name: 'RolePermissionOverride',
  tableName: 'role_permission_overrides',
  properties: {
    workspaceId: p.uuid().primary(),
    role: p.string().primary(),
    permissions: p.json<string[]>(),
    updatedAt: p.datetime(),
  },
});
export type RolePermissionOverride = InferEntity<typeof RolePermissionOverride>;
