/** A pending invitation: the user joins the workspace only when they accept it, so nobody is made a member (or shown to one) unasked. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const MemberInvitation = defineEntity({
  name: 'MemberInvitation',
  tableName: 'member_invitations',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    userId: p.uuid(),
    role: p.string().length(20),
    /** The username or e-mail exactly as the inviter typed it: all the workspace learns about the invitee until they accept. */
    invitedAs: p.string(),
    invitedBy: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});
export type MemberInvitation = InferEntity<typeof MemberInvitation>;
