/** The workspace last chosen by a user, remembered in localStorage per user (by `sub`). */

const key = (sub: string) => `loadplane.workspace.${sub}`;

export function readStoredWorkspace(sub: string): string | null {
  try {
    return window.localStorage.getItem(key(sub));
  } catch {
    return null;
  }
}

export function storeWorkspace(sub: string, workspaceId: string | null): void {
  try {
    if (workspaceId) window.localStorage.setItem(key(sub), workspaceId);
    else window.localStorage.removeItem(key(sub));
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}
