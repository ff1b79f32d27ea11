/** WorkspaceSwitcher: a labelled select of the user's workspaces in the header (just the name when there is one). */
import { useId } from 'react';
import { useWorkspace } from './workspace-context';

export function WorkspaceSwitcher() {
  const { workspaceId, workspaces, current, setWorkspaceId } = useWorkspace();
  const id = useId();
  if (workspaces.length <= 1) {
    return (
      <p className="workspace-name" title="Workspace">
        <span className="visually-hidden">Workspace: </span>
        {current?.name ?? workspaces[0]?.name ?? '…'}
      </p>
    );
  }
  return (
    <div className="workspace-switcher">
      <label htmlFor={id} className="visually-hidden">
        Workspace
      </label>
      <select id={id} value={workspaceId ?? ''} onChange={(event) => setWorkspaceId(event.target.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
            {w.role ? ` (${w.role})` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
