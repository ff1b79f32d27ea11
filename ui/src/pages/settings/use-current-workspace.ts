/** useCurrentWorkspace(): GET /workspace of the current workspace (plan, limits, role, permissions), shared with the header's query. */
import { useQuery } from '@tanstack/react-query';
import { useWorkspace } from '../../workspace/workspace-context';
import { workspaceQuery } from '../../workspace/workspace-queries';

export function useCurrentWorkspace() {
  const { workspaceId } = useWorkspace();
  return useQuery(workspaceQuery(workspaceId));
}

/** Whether the workspace answer grants a permission (false while it loads: the API decides anyway). */
export function hasPermission(workspace: { permissions: string[] } | undefined, permission: string): boolean {
  return workspace?.permissions.includes(permission) ?? false;
}
