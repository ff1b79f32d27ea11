/** The workspace switcher's list from GET /auth/me/workspaces, and the default workspace. */
import { describe, expect, test } from 'bun:test';
import type { MyWorkspace, Workspace } from '../api/types';
import { defaultWorkspaceId, workspaceList } from './workspace-queries';

const mine: MyWorkspace[] = [
  { id: 'w1', name: 'Default workspace', plan: 'free', role: 'owner', current: false },
  { id: 'w2', name: 'Team', plan: 'pro', role: 'member', current: true },
];

describe('workspace list', () => {
  test('in the API order, with role and plan', () => {
    expect(workspaceList(mine, undefined)).toEqual([
      { id: 'w1', name: 'Default workspace', role: 'owner', plan: 'free' },
      { id: 'w2', name: 'Team', role: 'member', plan: 'pro' },
    ]);
    expect(workspaceList(undefined, undefined)).toEqual([]);
  });
  test('the current workspace is added when the list lacks it', () => {
    const current = { id: 'w3', name: 'Other', role: 'admin' } as Workspace;
    expect(workspaceList(mine, current).map((w) => w.id)).toEqual(['w3', 'w1', 'w2']);
    expect(workspaceList(mine, { ...current, id: 'w2' }).map((w) => w.id)).toEqual(['w1', 'w2']);
  });
  test('the default is the one marked current, else the oldest membership', () => {
    expect(defaultWorkspaceId(mine)).toBe('w2');
    expect(defaultWorkspaceId(mine.map((w) => ({ ...w, current: false })))).toBe('w1');
    expect(defaultWorkspaceId([])).toBeNull();
    expect(defaultWorkspaceId(undefined)).toBeNull();
  });
});
