/** The caller of a request: who (a user, possibly through an API token), in which workspace, with which rights. */
import type { Role } from '../domain/roles.ts';
import type { Permission } from '../domain/permissions.ts';
import type { Scope } from '../domain/scopes.ts';

export interface WorkspaceAccess {
  workspaceId: string;
  role: Role;
  plan: string;
  status: string;
  /** The role's permissions in this workspace (Access Controls applied). */
  permissions: readonly Permission[];
}

export interface CallerIdentity {
  sub: string;
  email: string | null;
  name: string | null;
  preferred_username: string | null;
  roles: string[];
}

export interface CallerToken {
  id: string;
  name: string;
  /** Empty: full access (the role's rights). */
  scopes: readonly Scope[];
}

export interface Caller {
  userId: string;
  identity: CallerIdentity;
  /** Set when the request came with a personal API token. */
  token: CallerToken | null;
  workspace: WorkspaceAccess;
}

/** How the audit log names the caller. */
export function actorOf(caller: Caller) {
  return caller.token
    ? { actorType: 'token', actorId: caller.token.id, actorLabel: caller.token.name, actorUserId: caller.userId }
    : {
        actorType: 'user',
        actorId: caller.userId,
        actorLabel: caller.identity.preferred_username ?? caller.identity.email ?? caller.identity.sub,
        actorUserId: caller.userId,
      };
}

export const can = (caller: Caller, permission: Permission) => caller.workspace.permissions.includes(permission);
