/**
 * Members, the pure part: the roles, who may grant which, how a member is named, and the invite form's check.
 * Exports: ROLES, roleHelp, assignableRoles, memberName, memberDetail, validateInvite.
 */
import { allOf, type Member, type Role } from '../settings-types';

export const ROLES = allOf<Role>()(['owner', 'admin', 'member', 'viewer'] as const);

export const roleHelp: Record<Role, string> = {
  owner: 'everything, billing and access controls included',
  admin: 'everything but billing, by default',
  member: 'runs and manages tests and machines, by default',
  viewer: 'reads only, by default',
};

/** Only owners grant (or take away) the owner role; others pick among the rest. */
export function assignableRoles(myRole: Role | undefined): Role[] {
  return myRole === 'owner' ? [...ROLES] : ROLES.filter((role) => role !== 'owner');
}

/** The name to show: display name, else username, else e-mail, else the id. */
export function memberName(member: Pick<Member, 'name' | 'username' | 'email' | 'user_id'>): string {
  return member.name || member.username || member.email || member.user_id;
}

/** What else identifies the member: username and e-mail that the name does not already show. */
export function memberDetail(member: Pick<Member, 'name' | 'username' | 'email' | 'user_id'>): string {
  const name = memberName(member);
  return [member.username, member.email].filter((part): part is string => Boolean(part) && part !== name).join(' · ');
}

/** The handle to invite: a username or an e-mail, matched exactly by the API. */
export function validateInvite(user: string): string | null {
  const handle = user.trim();
  if (!handle) return 'Enter the exact username, or the verified e-mail, of someone who has signed in once.';
  if (handle.length > 320) return 'At most 320 characters.';
  return null;
}
