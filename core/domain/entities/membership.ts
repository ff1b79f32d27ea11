/** A user's membership of a workspace, with the role that decides what they may do there. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { type Role, roles } from '../roles.ts';

export { type Role, roles };

export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    userId: p.uuid(),
    role: p.string().length(20),
    createdAt: p.datetime(),
  },
});
export type Membership = InferEntity<typeof Membership>;
