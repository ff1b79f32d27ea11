/** The one state machine of a task: which status may follow which, and which are final. */
import { conflict } from '../kernel/errors.ts';

export const taskStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

const next: Record<TaskStatus, readonly TaskStatus[]> = {
  // pending -> failed: the tool could not start anywhere, or the test vanished before dispatch.
  pending: ['running', 'cancelled', 'failed'],
  running: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export const isTerminal = (status: string) => status === 'completed' || status === 'failed' || status === 'cancelled';

export function canMove(from: string, to: TaskStatus): boolean {
  return (next[from as TaskStatus] ?? []).includes(to);
}

export function assertMove(from: string, to: TaskStatus): void {
  if (!canMove(from, to)) throw conflict(`a ${from} task cannot become ${to}`);
}

/** Assignment states in which the machine is taken: sent, running, or being stopped (until the agent confirms). */
export const activeAssignmentStatuses = ['pending', 'running', 'cancelling'] as const;
export const assignmentStatuses = [...activeAssignmentStatuses, 'completed', 'failed', 'cancelled'] as const;
