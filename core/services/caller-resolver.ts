/** Resolves callers: a verified JWT identity or an API token's creator, to their workspace (oldest, or X-Workspace-Id), role and permissions. */
import { type EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { VerifiedIdentity } from '../capabilities/token-verifier.ts';
import { Membership, type Role } from '../domain/entities/membership.ts';
import { RolePermissionOverride } from '../domain/entities/role-permission-override.ts';
import { UserProfile } from '../domain/entities/user-profile.ts';
import { Workspace } from '../domain/entities/workspace.ts';
import { effectiveRolePermissions } from '../domain/permissions.ts';
import { DomainError, notFound } from '../kernel/errors.ts';
import type { HookBus } from '../kernel/hook-bus.ts';
import type { KernelHooks } from '../kernel/hooks.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import type { Database } from '../ports/database.ts';
import type { CallerIdentity, WorkspaceAccess } from './caller.ts';
import { isUuid } from './workspace-scope.ts';

export interface CallerResolverOptions {
  db: Database;
  hooks: HookBus<KernelHooks>;
  changes: ChangeFeed;
  defaultPlan: string;
  /** Backstop for how long memberships are served from memory; the change feed invalidates at once. */
  cacheMillis?: number;
  now?: () => number;
}

export interface ResolvedUser {
  userId: string;
  identity: CallerIdentity;
  workspace: WorkspaceAccess;
}

export interface CallerResolver {
  /** A JWT caller: their oldest workspace unless `requestedWorkspaceId` names another of theirs. */
  forIdentity(identity: VerifiedIdentity, requestedWorkspaceId?: string | null): Promise<ResolvedUser>;
  /** An API token's creator in the token's workspace; null when they are no longer a member. */
  forUserInWorkspace(userId: string, workspaceId: string): Promise<ResolvedUser | null>;
}

interface CachedUser {
  identity: CallerIdentity;
  memberships: WorkspaceAccess[];
  expiresAt: number;
}

const profileKeyOf = (identity: VerifiedIdentity) =>
  JSON.stringify([identity.email, identity.email_verified === true, identity.name, identity.preferred_username, identity.roles]);

export function createCallerResolver(options: CallerResolverOptions): CallerResolver {
  const cacheMillis = options.cacheMillis ?? 60_000;
  const now = options.now ?? Date.now;
  const userIdBySubject = new Map<string, { userId: string; profileKey: string }>();
  const byUser = new Map<string, CachedUser>();

  options.changes.subscribe((change) => {
    // The feed missed notices (its connection dropped): nothing cached can be trusted.
    if (change.kind === 'all') {
      byUser.clear();
      userIdBySubject.clear();
    }
    if (change.kind === 'user') byUser.delete(change.userId);
    if (change.kind === 'workspace') {
      for (const [userId, entry] of byUser) {
        if (entry.memberships.some((m) => m.workspaceId === change.workspaceId)) byUser.delete(userId);
      }
    }
  });

  async function loadUser(userId: string): Promise<CachedUser | null> {
    const em = options.db.fork();
    const profile = await em.findOne(UserProfile, { id: userId });
    if (!profile) return null;
    const entry = { identity: identityOf(profile), memberships: await membershipsOf(em, userId), expiresAt: now() + cacheMillis };
    byUser.set(userId, entry);
    return entry;
  }

  async function cachedUser(userId: string): Promise<CachedUser | null> {
    const cached = byUser.get(userId);
    if (cached && cached.expiresAt > now()) return cached;
    return loadUser(userId);
  }

  function checkActive(access: WorkspaceAccess) {
    if (access.status !== 'active') throw new DomainError('workspace_suspended', 'this workspace is suspended');
    return access;
  }

  return {
    async forIdentity(identity, requestedWorkspaceId) {
      const known = userIdBySubject.get(identity.sub);
      let userId = known?.userId;
      if (!known || known.profileKey !== profileKeyOf(identity)) {
        const em = options.db.fork();
        const profile = await upsertProfile(em, identity);
        userId = profile.id;
        userIdBySubject.set(identity.sub, { userId, profileKey: profileKeyOf(identity) });
        byUser.delete(userId);
      }
      let user = await cachedUser(userId!);
      if (user && user.memberships.length === 0) {
        await giveFirstWorkspace(options, userId!, identity);
        user = await loadUser(userId!);
      }
      if (!user || user.memberships.length === 0) throw new DomainError('internal_error', 'could not give the user a workspace');
      const identityNow: CallerIdentity = {
        sub: identity.sub,
        email: identity.email,
        name: identity.name,
        preferred_username: identity.preferred_username,
        roles: identity.roles,
      };
      if (!requestedWorkspaceId) return { userId: userId!, identity: identityNow, workspace: checkActive(user.memberships[0]!) };
      const match = isUuid(requestedWorkspaceId)
        ? user.memberships.find((m) => m.workspaceId === requestedWorkspaceId.toLowerCase())
        : undefined;
      // Not a member looks exactly like not existing: no oracle for other tenants' ids.
      if (!match) throw notFound('workspace');
      return { userId: userId!, identity: identityNow, workspace: checkActive(match) };
    },

    async forUserInWorkspace(userId, workspaceId) {
      const user = await cachedUser(userId);
      const access = user?.memberships.find((m) => m.workspaceId === workspaceId);
      if (!user || !access) return null;
      return { userId, identity: user.identity, workspace: checkActive(access) };
    },
  };
}

function identityOf(profile: UserProfile): CallerIdentity {
  return {
    sub: profile.subject,
    email: profile.email ?? null,
    name: profile.name ?? null,
    preferred_username: profile.username ?? null,
    roles: profile.realmRoles ?? [],
  };
}

async function giveFirstWorkspace(options: CallerResolverOptions, userId: string, identity: VerifiedIdentity) {
  const workspaceId = crypto.randomUUID();
  const label = identity.name ?? identity.preferred_username ?? identity.email ?? 'My';
  const created = await options.db.fork().transactional(async (tx) => {
    // A new user's first requests often come at once (a UI loading its pages, a script's parallel calls). The user's
    // profile row is their lock: the second waits here, then (read committed: a fresh snapshot per statement) sees the
    // first one's membership and leaves; without it both counted none and the user got two workspaces.
    await tx.findOne(UserProfile, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if ((await tx.count(Membership, { userId })) > 0) return false;
    const bootstrap = await tx.findOne(Workspace, { isBootstrap: true }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (bootstrap && (await mayClaimBootstrap(tx, bootstrap, identity))) {
      bootstrap.pendingOwnerUsername = null;
      tx.create(Membership, { id: crypto.randomUUID(), workspaceId: bootstrap.id, userId, role: 'owner', createdAt: new Date() });
      return false;
    }
    tx.create(Workspace, {
      id: workspaceId,
      name: `${label}'s workspace`.slice(0, 200),
      plan: options.defaultPlan,
      status: 'active',
      pendingOwnerUsername: null,
      isBootstrap: false,
      createdAt: new Date(),
    });
    // Entities carry plain ids, not relations, so the unit of work cannot order these inserts itself.
    await tx.flush();
    tx.create(Membership, { id: crypto.randomUUID(), workspaceId, userId, role: 'owner', createdAt: new Date() });
    return true;
  });
  if (created) await options.hooks.callHook('workspace:created', { workspaceId, ownerUserId: userId });
}

/** The first workspace goes to the first user who signs in, or to the one BOOTSTRAP_ADMIN_USERNAME names. */
async function mayClaimBootstrap(tx: EntityManager, bootstrap: Workspace, identity: VerifiedIdentity): Promise<boolean> {
  const pending = bootstrap.pendingOwnerUsername?.toLowerCase() ?? null;
  const username = identity.preferred_username?.toLowerCase() ?? null;
  if (pending !== null && pending !== username) return false;
  // Service accounts (the local agent) may be members already; the claim is for the first owner.
  return (await tx.count(Membership, { workspaceId: bootstrap.id, role: 'owner' })) === 0;
}

async function upsertProfile(em: EntityManager, identity: VerifiedIdentity): Promise<UserProfile> {
  const existing = await em.findOne(UserProfile, { subject: identity.sub });
  if (existing) {
    existing.email = identity.email;
    existing.emailVerified = identity.email_verified === true;
    existing.name = identity.name;
    existing.username = identity.preferred_username;
    existing.realmRoles = identity.roles;
    existing.updatedAt = new Date();
    await em.flush();
    return existing;
  }
  const profile = em.create(UserProfile, {
    id: crypto.randomUUID(),
    subject: identity.sub,
    email: identity.email,
    emailVerified: identity.email_verified === true,
    name: identity.name,
    username: identity.preferred_username,
    realmRoles: identity.roles,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  try {
    await em.flush();
    return profile;
  } catch (error) {
    // Two first requests of one user raced; the other one created the profile.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const winner = await em.fork().findOne(UserProfile, { subject: identity.sub });
    if (!winner) throw error;
    return winner;
  }
}

async function membershipsOf(em: EntityManager, userId: string): Promise<WorkspaceAccess[]> {
  const memberships = await em.find(Membership, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  if (memberships.length === 0) return [];
  const workspaceIds = memberships.map((m) => m.workspaceId);
  const [workspaces, overrides] = await Promise.all([
    em.find(Workspace, { id: { $in: workspaceIds } }),
    em.find(RolePermissionOverride, { workspaceId: { $in: workspaceIds } }),
  ]);
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  return memberships.flatMap((m) => {
    const workspace = byId.get(m.workspaceId);
    if (!workspace) return [];
    const own = Object.fromEntries(
      overrides.filter((o) => o.workspaceId === m.workspaceId).map((o) => [o.role, o.permissions]),
    );
    const role = m.role as Role;
    return [
      {
        workspaceId: m.workspaceId,
        role,
        plan: workspace.plan,
        status: workspace.status,
        permissions: effectiveRolePermissions(own)[role],
      },
    ];
  });
}
