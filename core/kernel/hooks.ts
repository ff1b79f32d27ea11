/** The kernel's hook names; plugins add their own with `declare module` augmentation of `KernelHooks`. */

export interface KernelHooks {
  /** Every plugin is set up and the registry is frozen. */
  'kernel:ready': { plugins: readonly string[] };
  /** Stop has begun; teardowns follow in reverse boot order. */
  'kernel:stopping': Record<string, never>;
  /** A user signed in for the first time and got a workspace of their own. */
  'workspace:created': { workspaceId: string; ownerUserId: string };
  'machine:created': { workspaceId: string; machineId: string };
  'machine:deleted': { workspaceId: string; machineId: string };
  'test:created': { workspaceId: string; testId: string };
  'test:deleted': { workspaceId: string; testId: string };
  /** A task was created, pending dispatch. */
  'run:created': { workspaceId: string; taskId: string };
  /** A task was sent to its machines (the spec's test.started). */
  'run:started': { workspaceId: string; taskId: string; testId: string; machineIds: string[] };
  /** A task reached a final status: completed, failed or cancelled. */
  'run:finished': {
    workspaceId: string;
    taskId: string;
    testId: string;
    machineIds: string[];
    status: 'completed' | 'failed' | 'cancelled';
    durationMs: number;
  };
  'machine:online': { workspaceId: string; machineId: string };
  'machine:offline': { workspaceId: string; machineId: string };
}
