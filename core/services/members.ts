/** Membership use cases: list, change a role, remove; the last owner always stays. New members come by invitation (member-invitations.ts). */
import type { EntityManager } from '@mikro-orm/core';
import { Membership, type Role } from '../domain/entities/membership.ts';
import { UserProfile } from '../domain/entities/user-profile.ts';
import { DomainError, forbidden, notFound } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import type { PageFilter } from './machines.ts';
import { isUuid, lockWorkspace } from './workspace-scope.ts';

export interface MemberView {
  user_id: string;
  username: string | null;
  email: string | null;
  name: string | null;
  role: Role;
  joined_at: string;
}

/** A member with the keyset of their membership, for paging. */
export interface MemberRow {
  id: string;
  createdAt: Date;
  member: MemberView;
}

const view = (membership: Membership, profile: UserProfile): MemberView => ({
  user_id: profile.id,
  username: profile.username ?? null,
  email: profile.email ?? null,
  name: profile.name ?? null,
  role: membership.role as Role,
  joined_at: membership.createdAt.toISOString(),
});

/** Only owners hand out, change or take away the owner role: an admin cannot make themselves owner. */
function checkOwnerChange(caller: Caller, from: Role | null, to: Role | null) {
  if ((from === 'owner' || to === 'owner') && caller.workspace.role !== 'owner') {
    throw forbidden('only owners may grant, change or remove the owner role');
  }
}

/** Owners of the workspace, counted under its row's lock: two owners demoting (or removing) each other at once must
 * not both see the other one still there and leave none. */
async function lockedOwnerCount(em: EntityManager, workspaceId: string) {
  await lockWorkspace(em, workspaceId);
  return em.count(Membership, { workspaceId, role: 'owner' });
}

export function createMemberService(deps: { db: Database; changes: ChangeFeed }) {
  async function membershipOf(em: EntityManager, caller: Caller, userId: string) {
    if (!isUuid(userId)) throw notFound('member');
    const membership = await em.findOne(Membership, { workspaceId: caller.workspace.workspaceId, userId: userId.toLowerCase() });
    if (!membership) throw notFound('member');
    return membership;
  }

  return {
    /** One page, oldest member first; `filter` is the keyset condition after the page's cursor. */
    async list(caller: Caller, page: PageFilter): Promise<MemberRow[]> {
      const em = deps.db.fork();
      const memberships = await em.find(
        Membership,
        { workspaceId: caller.workspace.workspaceId, ...page.filter },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: page.limit + 1 },
      );
      const profiles = await em.find(UserProfile, { id: { $in: memberships.map((m) => m.userId) } });
      const byId = new Map(profiles.map((p) => [p.id, p]));
      return memberships.flatMap((m) =>
        byId.has(m.userId) ? [{ id: m.id, createdAt: m.createdAt, member: view(m, byId.get(m.userId)!) }] : [],
      );
    },

    async changeRole(caller: Caller, userId: string, role: Role): Promise<MemberView> {
      const em = deps.db.fork();
      const result = await em.transactional(async (tx) => {
        const membership = await membershipOf(tx, caller, userId);
        const from = membership.role as Role;
        checkOwnerChange(caller, from, role);
        if (from === 'owner' && role !== 'owner' && (await lockedOwnerCount(tx, caller.workspace.workspaceId)) <= 1) {
          throw new DomainError('last_owner', 'the last owner cannot be demoted; make someone else owner first');
        }
        membership.role = role;
        const profile = await tx.findOneOrFail(UserProfile, { id: membership.userId });
        recordAudit(tx, caller, 'member.role_changed', { type: 'user', id: profile.id, label: profile.username ?? profile.email }, { from, to: role });
        return view(membership, profile);
      });
      await deps.changes.publish({ kind: 'user', userId: result.user_id });
      return result;
    },

    async remove(caller: Caller, userId: string): Promise<void> {
      const em = deps.db.fork();
      const removed = await em.transactional(async (tx) => {
        const membership = await membershipOf(tx, caller, userId);
        checkOwnerChange(caller, membership.role as Role, null);
        if (membership.role === 'owner' && (await lockedOwnerCount(tx, caller.workspace.workspaceId)) <= 1) {
          throw new DomainError('last_owner', 'the last owner cannot be removed; make someone else owner first');
        }
        const profile = await tx.findOne(UserProfile, { id: membership.userId });
        tx.remove(membership);
        recordAudit(tx, caller, 'member.removed', { type: 'user', id: membership.userId, label: profile?.username ?? profile?.email ?? null }, { role: membership.role });
        return membership.userId;
      });
      await deps.changes.publish({ kind: 'user', userId: removed });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
