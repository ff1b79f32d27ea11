/**
 * Queries of the identity (GET /auth/me), the user's workspaces (GET /auth/me/workspaces) and the current workspace
 * (GET /workspace), and workspaceList(): the switcher's list from them.
 */
import { api, unwrap } from '../api/client';
import type { Identity, MyWorkspace, Workspace } from '../api/types';
import type { WorkspaceSummary } from './workspace-context';

export const identityQuery = {
  queryKey: ['auth', 'me'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/auth/me')) as Promise<Identity>,
};

/** The workspaces the user may act in, oldest membership first; `current` marks the one the request acted in. */
export const myWorkspacesQuery = (workspaceId: string | null) => ({
  queryKey: ['auth', 'me', 'workspaces', workspaceId] as const,
  queryFn: () => unwrap(api.GET('/api/v1/auth/me/workspaces')) as Promise<MyWorkspace[]>,
});

export const workspaceQuery = (workspaceId: string | null) => ({
  queryKey: ['workspace', workspaceId] as const,
  queryFn: () => unwrap(api.GET('/api/v1/workspace')) as Promise<Workspace>,
});

/** The workspaces to offer, in the API's order (oldest membership first), with the current one added if missing. */
export function workspaceList(mine: MyWorkspace[] | undefined, current: Workspace | undefined): WorkspaceSummary[] {
  const all: WorkspaceSummary[] = (mine ?? []).map((w) => ({ id: w.id, name: w.name || w.id, role: w.role, plan: w.plan }));
  if (current && !all.some((w) => w.id === current.id)) all.unshift({ id: current.id, name: current.name, role: current.role });
  return all;
}

/** The workspace the service acts in when none is chosen: the one marked current, else the oldest membership. */
export function defaultWorkspaceId(mine: MyWorkspace[] | undefined): string | null {
  if (!mine || mine.length === 0) return null;
  return (mine.find((w) => w.current) ?? mine[0])!.id;
}
