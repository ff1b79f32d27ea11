/** A member's role in a workspace: what Access Controls grant permissions to. */

export const roles = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof roles)[number];
