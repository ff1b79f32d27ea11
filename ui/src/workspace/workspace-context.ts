/**
 * The current workspace. Exports: WorkspaceSummary, WorkspaceState, WorkspaceContext,
 * useWorkspace() → { workspaceId, workspaces, current, setWorkspaceId(id) }.
 */
import { createContext, useContext } from 'react';

export interface WorkspaceSummary {
  id: string;
  name: string;
  role?: string;
  plan?: string;
}

export interface WorkspaceState {
  /** The workspace every API call acts in (sent as X-Workspace-Id); null until known. */
  workspaceId: string | null;
  /** The workspaces the user may switch to. */
  workspaces: WorkspaceSummary[];
  /** The current workspace's summary, when known. */
  current: WorkspaceSummary | null;
  /** Switches workspace: remembered per user, and every cached query is refetched. */
  setWorkspaceId(id: string): void;
}

export const WorkspaceContext = createContext<WorkspaceState | null>(null);

export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext);
  if (!state) throw new Error('useWorkspace() needs a WorkspaceProvider above it');
  return state;
}
