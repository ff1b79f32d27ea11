/** Moves tasks and assignments through the state machine: finish, fail, cancel; publishes the terminal stream event and the hook. */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { Machine } from '../../domain/entities/machine.ts';
import { Task } from '../../domain/entities/task.ts';
import { TaskAssignment } from '../../domain/entities/task-assignment.ts';
import { mergeSummaries } from '../../domain/metrics/merge-summaries.ts';
import { canMove, isTerminal } from '../../domain/run-state.ts';
import type { RunContext } from './run-context.ts';
import { toTaskView } from './task-view.ts';

type Final = 'completed' | 'failed' | 'cancelled';

/** Completes the task if every assignment is final: merged metrics, status, done event, hook. */
export async function settleTask(ctx: RunContext, taskId: string): Promise<void> {
  const em = ctx.db.fork();
  const task = await em.findOne(Task, { id: taskId });
  if (!task || isTerminal(task.status)) return;
  const assignments = await em.find(TaskAssignment, { taskId });
  if (assignments.length === 0 || assignments.some((a) => !isTerminal(a.status))) return;
  const status: Final = assignments.every((a) => a.status === 'completed')
    ? 'completed'
    : assignments.some((a) => a.status === 'cancelled') && assignments.every((a) => a.status !== 'failed')
      ? 'cancelled'
      : 'failed';
  const reasons = assignments.filter((a) => a.status === 'failed' && a.reason).map((a) => a.reason!);
  await finishTask(ctx, task, status, reasons[0] ?? null, assignments.flatMap((a) => (a.summary ? [a.summary] : [])));
}

/** Writes the final status and figures (only once: a conditional update guards against a racing finisher). */
export async function finishTask(
  ctx: RunContext,
  task: Task,
  status: Final,
  errorMessage: string | null,
  summaries: readonly MetricSnapshot[],
): Promise<void> {
  if (!canMove(task.status, status)) return;
  const figures = mergeSummaries(summaries);
  const finishedAt = new Date();
  const em = ctx.db.fork();
  const updated = await em.nativeUpdate(
    Task,
    { id: task.id, status: task.status },
    {
      status,
      errorMessage,
      finishedAt,
      p50: figures.p50,
      p95: figures.p95,
      p99: figures.p99,
      errorRate: figures.errorRate,
      requestsPerSec: figures.requestsPerSec,
      totalRequests: figures.totalRequests,
    },
  );
  if (updated === 0) return;
  const final = await em.findOneOrFail(Task, { id: task.id });
  const view = toTaskView(final, ctx.settings.publicUrl);
  ctx.bus.publish(task.id, [{ type: 'done', task: view }]);
  const startedAt = final.startedAt ?? final.createdAt;
  await ctx.hooks.callHook('run:finished', {
    workspaceId: final.workspaceId,
    taskId: final.id,
    testId: final.testId,
    machineIds: (await em.find(TaskAssignment, { taskId: final.id })).map((a) => a.machineId),
    status,
    durationMs: finishedAt.getTime() - startedAt.getTime(),
  });
}

/** Ends one assignment with what its agent reported, frees its machine, and settles the task. */
export async function finishAssignment(
  ctx: RunContext,
  assignmentId: string,
  result: { status: Final; reason?: string | null; exitCode?: number | null; summary?: MetricSnapshot | null },
): Promise<TaskAssignment | null> {
  const em = ctx.db.fork();
  const assignment = await em.findOne(TaskAssignment, { id: assignmentId });
  if (!assignment) return null;
  if (!isTerminal(assignment.status)) {
    assignment.status = result.status;
    assignment.reason = result.reason ?? null;
    assignment.exitCode = result.exitCode ?? null;
    assignment.finishedAt = new Date();
  }
  // A cancelled run still reports what it measured.
  if (result.summary) assignment.summary = result.summary;
  await em.flush();
  await freeMachine(ctx, assignment.machineId);
  await settleTask(ctx, assignment.taskId);
  return assignment;
}

/** A machine with no active assignment is online again (if its agent is still here). */
export async function freeMachine(ctx: RunContext, machineId: string): Promise<void> {
  const em = ctx.db.fork();
  const active = await em.count(TaskAssignment, { machineId, status: { $in: ['pending', 'running'] } });
  if (active > 0) return;
  const status = ctx.agents.has(machineId) ? 'online' : 'offline';
  await em.nativeUpdate(Machine, { id: machineId, status: { $ne: status } }, { status, updatedAt: new Date() });
}

/** Cancels a task: pending ones end at once; running ones end now and their agents are told to kill the process. */
export async function cancelTask(ctx: RunContext, task: Task): Promise<void> {
  const em = ctx.db.fork();
  const assignments = await em.find(TaskAssignment, { taskId: task.id, status: { $in: ['pending', 'running'] } });
  for (const assignment of assignments) {
    assignment.status = 'cancelled';
    assignment.reason = 'cancelled';
    assignment.finishedAt = new Date();
    ctx.agents.get(assignment.machineId)?.send({ type: 'cancel', assignmentId: assignment.id });
  }
  await em.flush();
  const all = await em.find(TaskAssignment, { taskId: task.id });
  await finishTask(ctx, task, 'cancelled', null, all.flatMap((a) => (a.summary ? [a.summary] : [])));
}

/** Fails a task that could not start: an `error` stream event with the reason, then the final record. */
export async function failToStart(ctx: RunContext, task: Task, message: string): Promise<void> {
  const em = ctx.db.fork();
  const assignments = await em.find(TaskAssignment, { taskId: task.id, status: { $in: ['pending', 'running'] } });
  for (const assignment of assignments) {
    assignment.status = 'failed';
    assignment.reason = message;
    assignment.finishedAt = new Date();
    ctx.agents.get(assignment.machineId)?.send({ type: 'cancel', assignmentId: assignment.id });
  }
  await em.flush();
  const fresh = await em.findOneOrFail(Task, { id: task.id });
  if (!canMove(fresh.status, 'failed')) return;
  const updated = await em.nativeUpdate(Task, { id: task.id, status: fresh.status }, { status: 'failed', errorMessage: message, finishedAt: new Date() });
  if (updated === 0) return;
  const final = await em.findOneOrFail(Task, { id: task.id }, { refresh: true });
  ctx.bus.publish(task.id, [{ type: 'error', message, task: toTaskView(final, ctx.settings.publicUrl) }]);
  await ctx.hooks.callHook('run:finished', {
    workspaceId: final.workspaceId,
    taskId: final.id,
    testId: final.testId,
    machineIds: assignments.map((a) => a.machineId),
    status: 'failed',
    durationMs: 0,
  });
  for (const assignment of assignments) await freeMachine(ctx, assignment.machineId);
}

