/** WorkspaceProvider: picks the current workspace (remembered per user) from GET /auth/me/workspaces, sends it as X-Workspace-Id and switches it. */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/auth-context';
import { setCurrentWorkspaceId } from '../api/credentials';
import { ApiError } from '../api/api-error';
import { WorkspaceContext, type WorkspaceState } from './workspace-context';
import { readStoredWorkspace, storeWorkspace } from './stored-workspace';
import { defaultWorkspaceId, myWorkspacesQuery, workspaceList } from './workspace-queries';

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const sub = user?.profile.sub ?? '';
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(() => {
    const stored = sub ? readStoredWorkspace(sub) : null;
    setCurrentWorkspaceId(stored);
    return stored;
  });

  const mine = useQuery({
    ...myWorkspacesQuery(chosen),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

  // A remembered workspace the user no longer belongs to answers 404 (X-Workspace-Id): fall back to the default one.
  const forgotten = chosen !== null && mine.error instanceof ApiError && mine.error.status === 404;
  useEffect(() => {
    if (!forgotten) return;
    storeWorkspace(sub, null);
    setCurrentWorkspaceId(null);
    setChosen(null);
    void queryClient.resetQueries();
  }, [forgotten, sub, queryClient]);

  const setWorkspaceId = useCallback(
    (id: string) => {
      storeWorkspace(sub, id);
      setCurrentWorkspaceId(id);
      setChosen(id);
      void queryClient.resetQueries();
    },
    [sub, queryClient],
  );

  const value = useMemo<WorkspaceState>(() => {
    const workspaces = workspaceList(mine.data, undefined);
    const workspaceId = chosen ?? defaultWorkspaceId(mine.data);
    const current = workspaces.find((w) => w.id === workspaceId) ?? null;
    return { workspaceId, workspaces, current, setWorkspaceId };
  }, [mine.data, chosen, setWorkspaceId]);

  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
