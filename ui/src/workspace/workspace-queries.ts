/** Queries of the identity (GET /auth/me) and the current workspace (GET /workspace), and the workspace list they give. */
import { api, unwrap } from '../api/client';
import type { Identity, Workspace } from '../api/types';
import type { WorkspaceSummary } from './workspace-context';

/** GET /auth/me may list the user's workspaces (`workspaces: [{id, name, role}]`) besides the spec's fields. */
export type IdentityWithWorkspaces = Identity & { workspaces?: unknown };

export const identityQuery = {
  queryKey: ['auth', 'me'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/auth/me')) as Promise<IdentityWithWorkspaces>,
};

export const workspaceQuery = (workspaceId: string | null) => ({
  queryKey: ['workspace', workspaceId] as const,
  queryFn: () => unwrap(api.GET('/api/v1/workspace')) as Promise<Workspace>,
});

function summaryOf(value: unknown): WorkspaceSummary | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const inner = (record.workspace && typeof record.workspace === 'object' ? record.workspace : record) as Record<string, unknown>;
  if (typeof inner.id !== 'string') return null;
  return {
    id: inner.id,
    name: typeof inner.name === 'string' && inner.name ? inner.name : inner.id,
    role: typeof record.role === 'string' ? record.role : undefined,
  };
}

/** The workspaces to offer: those /auth/me lists, plus the current one. */
export function workspaceList(identity: IdentityWithWorkspaces | undefined, current: Workspace | undefined): WorkspaceSummary[] {
  const listed = Array.isArray(identity?.workspaces) ? identity.workspaces.map(summaryOf) : [];
  const all = listed.filter((w): w is WorkspaceSummary => w !== null);
  if (current && !all.some((w) => w.id === current.id)) all.unshift({ id: current.id, name: current.name, role: current.role });
  return all;
}
