/**
 * Member invitations: `POST /members` invites a user found by exact username or verified e-mail; they join only when they
 * accept. Until then the workspace learns nothing about them beyond the handle it typed, and every handle that cannot
 * be invited (unknown, unverified e-mail, ambiguous, a service account) gets one and the same 404.
 */
import { type EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { MemberInvitation } from '../domain/entities/member-invitation.ts';
import { Membership, type Role } from '../domain/entities/membership.ts';
import { UserProfile } from '../domain/entities/user-profile.ts';
import { Workspace } from '../domain/entities/workspace.ts';
import { badRequest, conflict, DomainError, forbidden, notFound } from '../kernel/errors.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import { sqlOf } from './sql.ts';
import { findInWorkspace, isUuid } from './workspace-scope.ts';

/** What the inviting workspace sees of an invitation: its own words, never the invitee's profile. */
export interface InvitationView {
  id: string;
  user: string;
  role: Role;
  /** Derived from the age: an invitation not accepted within `invitationLifetimeMillis` is `expired`. */
  status: 'pending' | 'expired';
  invited_at: string;
  expires_at: string;
}

/** What the invitee sees: which workspace asks, for which role, and who asked. */
export interface ReceivedInvitationView {
  id: string;
  workspace: { id: string; name: string };
  role: Role;
  invited_by: string | null;
  invited_at: string;
  expires_at: string;
}

export interface JoinedView {
  workspace: { id: string; name: string };
  role: Role;
  joined_at: string;
}

/** One body for every handle that cannot be invited: it must not tell "no such user" from "exists, but not for you". */
export const notInvitableMessage =
  'no user can be invited by this username or e-mail: they must have signed in once, and an e-mail counts only when the identity provider has verified it';
const notInvitable = () => new DomainError('not_found', notInvitableMessage);

/** Service accounts (the embedded local agent) are not people and never join another workspace. */
const serviceAccountPrefix = 'loadplane:';
const maxHandleLength = 320;

/** An invitation is good for seven days, as on the code hosts people know; then the inviter sends a new one. */
export const invitationLifetimeMillis = 7 * 24 * 60 * 60 * 1000;
const expiresAt = (invitation: MemberInvitation) => new Date(invitation.createdAt.getTime() + invitationLifetimeMillis);
const isExpired = (invitation: MemberInvitation, now: Date) => expiresAt(invitation) <= now;

export const invitationView = (invitation: MemberInvitation, now = new Date()): InvitationView => ({
  id: invitation.id,
  user: invitation.invitedAs,
  role: invitation.role as Role,
  status: isExpired(invitation, now) ? 'expired' : 'pending',
  invited_at: invitation.createdAt.toISOString(),
  expires_at: expiresAt(invitation).toISOString(),
});

export function createInvitationService(deps: { db: Database; changes: ChangeFeed; now?: () => Date }) {
  const sql = sqlOf(deps.db);
  const now = deps.now ?? (() => new Date());
  /** Invitations created before this are expired. */
  const cutoff = () => new Date(now().getTime() - invitationLifetimeMillis);

  /** The one user an exact handle names, or null; `%` and `_` are ordinary characters here (no LIKE anywhere). */
  async function invitableUser(handle: string): Promise<string | null> {
    const rows = await sql.all<{ id: string }>(
      `select id from user_profiles
        where left(subject, ${serviceAccountPrefix.length}) <> ?
          and (lower(username) = lower(?) or (email_verified and lower(email) = lower(?)))
        limit 2`,
      [serviceAccountPrefix, handle, handle],
    );
    // Two people answer to this handle (one's username is the other's e-mail): we cannot tell whom the inviter means.
    return rows.length === 1 ? rows[0]!.id : null;
  }

  async function ownInvitation(em: EntityManager, caller: Caller, id: string, lock: boolean) {
    if (!isUuid(id)) throw notFound('invitation');
    const invitation = await em.findOne(
      MemberInvitation,
      { id: id.toLowerCase(), userId: caller.userId },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
    if (!invitation) throw notFound('invitation');
    if (isExpired(invitation, now())) throw new DomainError('not_found', 'this invitation has expired; ask the workspace for a new one');
    return invitation;
  }

  /** The invitee acts in the inviting workspace's audit log, though their request came through a workspace of their own. */
  const inWorkspace = (caller: Caller, workspaceId: string): Caller => ({ ...caller, workspace: { ...caller.workspace, workspaceId } });

  return {
    async invite(caller: Caller, input: { user: string; role: Role }): Promise<InvitationView> {
      if (input.role === 'owner' && caller.workspace.role !== 'owner') {
        throw forbidden('only owners may grant, change or remove the owner role');
      }
      const handle = input.user.trim();
      if (!handle) throw badRequest('user must be a username or an e-mail address', { field: 'user' });
      if (handle.length > maxHandleLength) throw notInvitable();
      const userId = await invitableUser(handle);
      if (!userId) throw notInvitable();
      const workspaceId = caller.workspace.workspaceId;
      const em = deps.db.fork();
      // A member is inside the workspace already: saying so tells the inviter nothing about anyone outside it.
      if (await em.count(Membership, { workspaceId, userId })) throw conflict('this user is already a member of the workspace');
      // An expired invitation is history: a new one replaces it.
      await em.nativeDelete(MemberInvitation, { workspaceId, userId, createdAt: { $lte: cutoff() } });
      const invitation = em.create(MemberInvitation, {
        id: crypto.randomUUID(),
        workspaceId,
        userId,
        role: input.role,
        invitedAs: handle,
        invitedBy: caller.userId,
        createdAt: now(),
      });
      recordAudit(em, caller, 'member.invited', { type: 'invitation', id: invitation.id, label: handle }, { role: input.role });
      try {
        await em.flush();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) {
          throw conflict('this user has a pending invitation to the workspace already; withdraw it to change the role');
        }
        throw error;
      }
      return invitationView(invitation, now());
    },

    /** The workspace's pending invitations, newest first. */
    async pending(caller: Caller, page: { limit: number; filter: object }): Promise<MemberInvitation[]> {
      return deps.db
        .fork()
        .find(
          MemberInvitation,
          { workspaceId: caller.workspace.workspaceId, ...page.filter },
          { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
        );
    },

    async withdraw(caller: Caller, id: string): Promise<void> {
      const em = deps.db.fork();
      const invitation = await findInWorkspace(em, MemberInvitation, caller.workspace.workspaceId, id, 'invitation');
      em.remove(invitation);
      recordAudit(em, caller, 'member.invitation_withdrawn', { type: 'invitation', id: invitation.id, label: invitation.invitedAs }, { role: invitation.role });
      await em.flush();
    },

    /** The caller's own pending invitations (not expired), from any workspace, newest first. */
    async received(
      caller: Caller,
      page: { limit: number; filter: object },
    ): Promise<(ReceivedInvitationView & { createdAt: Date })[]> {
      const em = deps.db.fork();
      const invitations = await em.find(
        MemberInvitation,
        { userId: caller.userId, createdAt: { $gt: cutoff() }, ...page.filter },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
      const workspaces = new Map(
        (await em.find(Workspace, { id: { $in: invitations.map((i) => i.workspaceId) } })).map((w) => [w.id, w]),
      );
      const inviterIds = invitations.flatMap((i) => (i.invitedBy ? [i.invitedBy] : []));
      const inviters = new Map((await em.find(UserProfile, { id: { $in: inviterIds } })).map((p) => [p.id, p]));
      return invitations.map((invitation) => {
        const inviter = invitation.invitedBy ? inviters.get(invitation.invitedBy) : undefined;
        return {
          id: invitation.id,
          createdAt: invitation.createdAt,
          workspace: { id: invitation.workspaceId, name: workspaces.get(invitation.workspaceId)?.name ?? '' },
          role: invitation.role as Role,
          invited_by: inviter ? (inviter.username ?? inviter.name ?? null) : null,
          invited_at: invitation.createdAt.toISOString(),
          expires_at: expiresAt(invitation).toISOString(),
        };
      });
    },

    async accept(caller: Caller, id: string): Promise<JoinedView> {
      const joined = await deps.db.fork().transactional(async (tx) => {
        // Locked: an accept racing a withdrawal (or a second accept) either joins once or finds nothing.
        const invitation = await ownInvitation(tx, caller, id, true);
        const workspace = await tx.findOneOrFail(Workspace, { id: invitation.workspaceId });
        const role = invitation.role as Role;
        let membership = await tx.findOne(Membership, { workspaceId: workspace.id, userId: caller.userId });
        membership ??= tx.create(Membership, {
          id: crypto.randomUUID(),
          workspaceId: workspace.id,
          userId: caller.userId,
          role,
          createdAt: new Date(),
        });
        tx.remove(invitation);
        recordAudit(
          tx,
          inWorkspace(caller, workspace.id),
          'member.added',
          { type: 'user', id: caller.userId, label: caller.identity.preferred_username ?? caller.identity.email },
          { role, invited_as: invitation.invitedAs },
        );
        return { workspace: { id: workspace.id, name: workspace.name }, role: membership.role as Role, joined_at: membership.createdAt.toISOString() };
      });
      await deps.changes.publish({ kind: 'user', userId: caller.userId });
      return joined;
    },

    async decline(caller: Caller, id: string): Promise<void> {
      await deps.db.fork().transactional(async (tx) => {
        const invitation = await ownInvitation(tx, caller, id, true);
        tx.remove(invitation);
        recordAudit(
          tx,
          inWorkspace(caller, invitation.workspaceId),
          'member.invitation_declined',
          { type: 'invitation', id: invitation.id, label: invitation.invitedAs },
          { role: invitation.role },
        );
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
