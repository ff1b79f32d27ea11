/**
 * The one state machine of a task and of its assignments: which status may follow which, and which are final. The
 * lifecycle (core/services/runs/run-lifecycle.ts) reads its guards and the status lists of its SQL from here.
 */
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

/**
 * A finished run: one that ran and ended on its own, completed or failed (by a machine or by its thresholds), so its
 * figures are final. A cancelled run, or one that never started (its tool could not start, it waited too long), is not:
 * it is no baseline and no point of a trend.
 */
export const finishedRunStatuses = ['completed', 'failed'] as const;
export const isFinishedRun = (task: { status: string; startedAt?: Date | string | null }) =>
  (finishedRunStatuses as readonly string[]).includes(task.status) && task.startedAt !== null && task.startedAt !== undefined;

export function canMove(from: string, to: TaskStatus): boolean {
  return (next[from as TaskStatus] ?? []).includes(to);
}

export function assertMove(from: string, to: TaskStatus): void {
  if (!canMove(from, to)) throw conflict(`a ${from} task cannot become ${to}`);
}

/** Assignment states in which the machine is taken: sent, running, or being stopped (until the agent confirms). */
export const activeAssignmentStatuses = ['pending', 'running', 'cancelling'] as const;
export const assignmentStatuses = [...activeAssignmentStatuses, 'completed', 'failed', 'cancelled'] as const;
export type AssignmentStatus = (typeof assignmentStatuses)[number];

const nextOfAssignment: Record<AssignmentStatus, readonly AssignmentStatus[]> = {
  // pending -> completed|failed: an agent may report the end (or that the tool could not start) without a `started`.
  pending: ['running', 'cancelling', 'completed', 'failed'],
  running: ['cancelling', 'completed', 'failed'],
  // Once a stop was asked it ends cancelled, whatever the agent reports last, and if the agent is lost too.
  cancelling: ['cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canMoveAssignment(from: string, to: AssignmentStatus): boolean {
  return (nextOfAssignment[from as AssignmentStatus] ?? []).includes(to);
}

/** The assignment statuses from which one may become `to`: the lists the lifecycle's SQL selects and updates by. */
export const assignmentStatusesBefore = (to: AssignmentStatus): AssignmentStatus[] => assignmentStatuses.filter((from) => canMoveAssignment(from, to));
