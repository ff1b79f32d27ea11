/** WorkspaceProvider: picks the current workspace (remembered per user), sends it as X-Workspace-Id and switches it. */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/auth-context';
import { setCurrentWorkspaceId } from '../api/credentials';
import { WorkspaceContext, type WorkspaceState } from './workspace-context';
import { readStoredWorkspace, storeWorkspace } from './stored-workspace';
import { identityQuery, workspaceList, workspaceQuery } from './workspace-queries';
import { ApiError } from '../api/api-error';

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const sub = user?.profile.sub ?? '';
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(() => {
    const stored = sub ? readStoredWorkspace(sub) : null;
    setCurrentWorkspaceId(stored);
    return stored;
  });

  const identity = useQuery(identityQuery);
  const workspace = useQuery({
    ...workspaceQuery(chosen),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

  // A remembered workspace the user no longer belongs to answers 404: fall back to the default one.
  const forgotten = chosen !== null && workspace.error instanceof ApiError && workspace.error.status === 404;
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
    const workspaces = workspaceList(identity.data, workspace.data);
    const workspaceId = chosen ?? workspace.data?.id ?? null;
    const current = workspaces.find((w) => w.id === workspaceId) ?? null;
    return { workspaceId, workspaces, current, setWorkspaceId };
  }, [identity.data, workspace.data, chosen, setWorkspaceId]);

  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
