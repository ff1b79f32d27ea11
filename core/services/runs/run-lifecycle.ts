/**
 * The one owner of every task and assignment transition. Each runs in one database transaction that locks the task
 * row first (so transitions of one task never interleave, on any replica) and writes its outbox row; what must follow
 * a commit (terminal stream events, commands to agents, a dispatch pass) is handed to `RunEffects` after it.
 */
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { snapshotProblem } from '../../domain/metrics/check-snapshot.ts';
import { mergeSummaries, type RunFigures } from '../../domain/metrics/merge-summaries.ts';
import {
  evaluateThresholds,
  liveAbortThresholds,
  liveFailures,
  storedThresholds,
  thresholdFailureMessage,
  type Threshold,
  type ThresholdResult,
  verdictOf,
} from '../../domain/thresholds.ts';
import { endpointFiguresOf } from './endpoint-figures.ts';
import { intervalSummaries } from './interval-summaries.ts';
import { activeAssignmentStatuses, assertMove, assignmentStatusesBefore, canMove, canMoveAssignment, isTerminal } from '../../domain/run-state.ts';
import { isUniqueViolation, placeholders, type Sql, sqlOf, transaction, type Tx } from '../sql.ts';
import { writeOutbox } from './outbox.ts';
import { Task } from '../../domain/entities/task.ts';
import { newPublicId } from '../../domain/public-id.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Database } from '../../ports/database.ts';

type Final = 'completed' | 'failed' | 'cancelled';

export type AgentCommand = { type: 'assign' | 'cancel'; assignmentId: string };

/** What a committed transition asks of the rest of the run machinery. */
export interface RunEffects {
  /** A task reached its terminal state: streams end, hooks fire. */
  finished(taskId: string): void;
  /** Tell the agent of a machine (on whichever replica holds its socket). */
  command(machineId: string, command: AgentCommand): void;
  /** A machine may be free, or work may be waiting: look for work. */
  wake(): void;
}

interface TaskRow {
  id: string;
  workspace_id: string;
  test_id: string;
  status: string;
  created_at: Date | string;
  started_at: Date | string | null;
  /** The thresholds copied from the test when the task was created (jsonb). */
  thresholds: unknown;
}

/** How a terminal transition judges the task's thresholds. */
type Judgement =
  /** Not at all (verdict null): the run was cancelled, or never ran. */
  | { kind: 'none' }
  /** On the final figures: the run ended on its own; failing thresholds fail it. */
  | { kind: 'final' }
  /** Already judged, on these figures: an abort threshold stopped the run. */
  | { kind: 'stopped'; figures: RunFigures; results: ThresholdResult[] };

interface AssignmentRow {
  id: string;
  task_id: string;
  machine_id: string;
  status: string;
  reason: string | null;
  summary: MetricSnapshot | string | null;
}

const active = placeholders(activeAssignmentStatuses);
const activeList = [...activeAssignmentStatuses];

/** Statuses as an SQL list: constants of run-state.ts, never input, so written inline. */
const sqlList = (statuses: readonly string[]) => statuses.map((status) => `'${status}'`).join(', ');
/** Assignments that may begin running (the agent's `started`). */
const mayStart = sqlList(assignmentStatusesBefore('running'));
/** Assignments whose stop was asked: when they end, for whatever reason, they end cancelled. */
const stopAsked = sqlList(assignmentStatusesBefore('cancelled'));
/** An assignment's status when it ends: cancelled where a stop was asked, else failed. */
const endedStatus = `case when status in (${stopAsked}) then 'cancelled' else 'failed' end`;

/** A task as a start creates it (the lifecycle fills in the rest: pending, no figures yet). */
export interface NewTask {
  id: string;
  workspaceId: string;
  testId: string;
  configId: string | null;
  scheduleId: string | null;
  transport: 'sse' | 'ws';
  machineIds: readonly string[];
  createdBy: string | null;
  thresholds: readonly Threshold[];
  pendingUntil: Date | null;
}

export interface AssignmentResult {
  status: 'completed' | 'failed';
  reason?: string | null;
  exitCode?: number | null;
  summary?: MetricSnapshot | null;
}

/** Seconds from the first sample to the last across the snapshots (as `mergeSummaries` measures the rate over). */
function measuredSeconds(snapshots: readonly MetricSnapshot[]): number {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const snapshot of snapshots) {
    if (snapshot.requests === 0 && snapshot.histogram.count === 0) continue;
    start = Math.min(start, snapshot.startedAt);
    end = Math.max(end, snapshot.endedAt);
  }
  return end > start ? (end - start) / 1000 : 0;
}

export interface RunLifecycleDeps {
  db: Database;
  /** `run:started` is called after its claim commits. */
  hooks: Pick<HookBus<KernelHooks>, 'callHook'>;
}

export function createRunLifecycle(deps: RunLifecycleDeps, effects: RunEffects) {
  /** Locks the task row: every transition of one task takes this lock first, so they serialise. */
  async function lockTask(tx: Sql, taskId: string, skipLocked = false): Promise<TaskRow | null> {
    const rows = await tx.all<TaskRow>(
      `select id, workspace_id, test_id, status, created_at, started_at, thresholds from tasks where id = ? for update${skipLocked ? ' skip locked' : ''}`,
      [taskId],
    );
    return rows[0] ?? null;
  }

  const summaryOf = (row: AssignmentRow): MetricSnapshot | null =>
    typeof row.summary === 'string' ? (JSON.parse(row.summary) as MetricSnapshot) : row.summary;

  /**
   * Writes the task's terminal state with figures merged from its assignments' summaries, its thresholds' verdict (a run
   * that ended on its own with a failing threshold ends failed, the thresholds named in its error), and its outbox row.
   */
  async function finishTask(
    tx: Sql,
    task: TaskRow,
    outcome: Final,
    cause: { message: string; startFailed: boolean } | null,
    judgement: Judgement = { kind: 'none' },
  ): Promise<void> {
    const assignments = await tx.all<AssignmentRow>('select id, task_id, machine_id, status, reason, summary from task_assignments where task_id = ?', [task.id]);
    const figures = judgement.kind === 'stopped' ? judgement.figures : mergeSummaries(await snapshotsOf(tx, task.id, assignments));
    const thresholds = storedThresholds(task.thresholds);
    const results =
      judgement.kind === 'stopped'
        ? judgement.results
        : judgement.kind === 'final' && outcome !== 'cancelled' && thresholds.length > 0
          ? evaluateThresholds(thresholds, { total: figures, endpoints: await endpointFiguresOf(tx, task.id) })
          : [];
    const verdict = verdictOf(results);
    const failure = judgement.kind === 'final' ? thresholdFailureMessage(results) : null;
    const status: Final = failure ? 'failed' : outcome;
    // Every caller checked the move with the task locked: failing here is a bug, and rolls the transition back.
    assertMove(task.status, status);
    const error = failure ? { message: cause ? `${cause.message}; ${failure}` : failure, startFailed: false } : cause;
    const rows = await tx.all<{ finished_at: Date | string }>(
      `update tasks set status = ?, error_message = ?, finished_at = now(), pending_until = null, pending_reason = null,
         p50 = ?, p95 = ?, p99 = ?, error_rate = ?, requests_per_sec = ?, total_requests = ?, verdict = ?, threshold_results = ?::jsonb
       where id = ? returning finished_at`,
      [
        status,
        error?.message ?? null,
        figures.p50,
        figures.p95,
        figures.p99,
        figures.errorRate,
        figures.requestsPerSec,
        figures.totalRequests,
        verdict,
        JSON.stringify(results),
        task.id,
      ],
    );
    const startedAt = task.started_at ? new Date(task.started_at) : null;
    const finishedAt = new Date(rows[0]!.finished_at);
    await writeOutbox(tx, {
      workspaceId: task.workspace_id,
      event: 'run.finished',
      taskId: task.id,
      payload: {
        test_id: task.test_id,
        status,
        machine_ids: assignments.map((a) => a.machine_id),
        duration_ms: startedAt ? Math.max(0, finishedAt.getTime() - startedAt.getTime()) : 0,
        error: error?.message ?? null,
        start_failed: error?.startFailed ?? false,
        verdict,
      },
    });
  }

  /**
   * What the task's figures are merged from: each machine's summary, or, where its agent has not sent one yet (a run
   * cancelled while it ran, a machine lost), what its interval points stored so far. Never averaged: `mergeSummaries`
   * merges the histograms.
   */
  async function snapshotsOf(tx: Sql, taskId: string, assignments: readonly AssignmentRow[]): Promise<MetricSnapshot[]> {
    const summaries = assignments.flatMap((a) => summaryOf(a) ?? []);
    const without = assignments.filter((a) => !summaryOf(a)).map((a) => a.machine_id);
    const intervals = await intervalSummaries(tx, taskId, [...new Set(without)]);
    return [...summaries, ...intervals.values()];
  }

  /**
   * A summary that arrives after its task ended (the agent confirming a cancel, with what it measured until then)
   * completes the figures; the status, its time and its outbox row stay as they were.
   */
  async function refreshFigures(tx: Sql, taskId: string): Promise<void> {
    const assignments = await tx.all<AssignmentRow>('select id, task_id, machine_id, status, reason, summary from task_assignments where task_id = ?', [taskId]);
    const figures = mergeSummaries(await snapshotsOf(tx, taskId, assignments));
    await tx.all(
      'update tasks set p50 = ?, p95 = ?, p99 = ?, error_rate = ?, requests_per_sec = ?, total_requests = ? where id = ?',
      [figures.p50, figures.p95, figures.p99, figures.errorRate, figures.requestsPerSec, figures.totalRequests, taskId],
    );
  }

  /** With the task locked: when every assignment has ended, the task ends with the status they add up to. */
  async function settle(tx: Sql, task: TaskRow): Promise<boolean> {
    if (isTerminal(task.status)) return false;
    const assignments = await tx.all<AssignmentRow>('select id, task_id, machine_id, status, reason, summary from task_assignments where task_id = ?', [task.id]);
    if (assignments.some((a) => !isTerminal(a.status))) return false;
    if (task.status === 'pending') return false;
    if (assignments.length === 0) {
      await finishTask(tx, task, 'failed', { message: 'the run lost its machines before it began', startFailed: true });
      return true;
    }
    const status: Final = assignments.every((a) => a.status === 'completed')
      ? 'completed'
      : assignments.some((a) => a.status === 'cancelled') && assignments.every((a) => a.status !== 'failed')
        ? 'cancelled'
        : 'failed';
    const reason = assignments.find((a) => a.status === 'failed' && a.reason)?.reason ?? null;
    await finishTask(tx, task, status, status === 'failed' && reason ? { message: reason, startFailed: false } : null, { kind: 'final' });
    return true;
  }

  /** Runs one transition; effects are applied only after the commit. */
  async function run<T>(work: (tx: Tx, after: Effect[]) => Promise<T>): Promise<T> {
    const after: Effect[] = [];
    const result = await transaction(deps.db, (tx) => work(tx, after));
    for (const effect of after) effect();
    return result;
  }
  type Effect = () => void;

  /** Cancels what still runs of a task on its agents (they confirm, then the machine is free). */
  async function stopAssignments(tx: Sql, taskId: string, after: Effect[], reason: string) {
    const stopping = await tx.all<{ id: string; machine_id: string; status: string }>(
      // A cancelling one is asked again (its agent may not have heard); the others become cancelling.
      `update task_assignments set status = 'cancelling', reason = coalesce(reason, ?), sent_at = now()
       where task_id = ? and status in (${active}) returning id, machine_id, status`,
      [reason, taskId, ...activeList],
    );
    for (const a of stopping) after.push(() => effects.command(a.machine_id, { type: 'cancel', assignmentId: a.id }));
  }

  return {
    /**
     * (none) -> pending: the task row and its run.created outbox row, in the caller's transaction (which holds the
     * workspace's lock and checked the test, the machines and the plan's cap), so the start, its audit entry and its
     * event commit together or not at all.
     */
    async create(tx: Tx, task: NewTask): Promise<{ id: string; publicId: string }> {
      const created = tx.em.create(Task, {
        id: task.id,
        publicId: newPublicId(),
        workspaceId: task.workspaceId,
        testId: task.testId,
        configId: task.configId,
        scheduleId: task.scheduleId,
        status: 'pending',
        transport: task.transport,
        requestedMachineIds: [...task.machineIds],
        machineCount: Math.max(1, task.machineIds.length),
        createdBy: task.createdBy,
        p50: null,
        p95: null,
        p99: null,
        errorRate: null,
        requestsPerSec: null,
        totalRequests: null,
        errorMessage: null,
        thresholds: [...task.thresholds],
        verdict: null,
        thresholdResults: [],
        logLines: 0,
        logSeq: 0,
        logTruncated: false,
        pendingUntil: task.pendingUntil,
        pendingReason: null,
        createdAt: new Date(),
        startedAt: null,
        finishedAt: null,
      });
      await tx.em.flush();
      await writeOutbox(tx, { workspaceId: task.workspaceId, event: 'run.created', taskId: task.id, payload: { test_id: task.testId, machine_ids: task.machineIds } });
      return { id: created.id, publicId: created.publicId };
    },

    /** pending -> running on the given machines; null when the task was taken or ended, or a machine is no longer free. */
    async claim(taskId: string, machineIds: readonly string[]): Promise<string[] | null> {
      try {
        return await run(async (tx, after) => {
          const task = await lockTask(tx, taskId, true);
          if (!task || !canMove(task.status, 'running')) return null;
          // Key-share locks: a machine being deleted now is waited for and then missing; a deletion waits for this claim.
          const present = await tx.all(`select id from machines where id in (${placeholders(machineIds)}) and workspace_id = ? for key share`, [
            ...machineIds,
            task.workspace_id,
          ]);
          if (present.length !== new Set(machineIds).size) return null;
          const ids: string[] = [];
          for (const [index, machineId] of machineIds.entries()) {
            const id = crypto.randomUUID();
            ids.push(id);
            // The unique index on active assignments refuses a machine another replica just took.
            await tx.all(
              `insert into task_assignments (id, task_id, workspace_id, machine_id, machine_index, status, last_log_seq, created_at, sent_at)
               values (?, ?, ?, ?, ?, 'pending', 0, now(), now())`,
              [id, taskId, task.workspace_id, machineId, index],
            );
            after.push(() => effects.command(machineId, { type: 'assign', assignmentId: id }));
          }
          await tx.all(
            `update tasks set status = 'running', started_at = now(), pending_until = null, pending_reason = null, requested_machine_ids = ?::jsonb where id = ?`,
            [
              JSON.stringify(machineIds),
              taskId,
            ],
          );
          await writeOutbox(tx, { workspaceId: task.workspace_id, event: 'run.started', taskId, payload: { test_id: task.test_id, machine_ids: machineIds } });
          after.push(() => void deps.hooks.callHook('run:started', { workspaceId: task.workspace_id, taskId, testId: task.test_id, machineIds: [...machineIds] }));
          return ids;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** The agent began the run: pending -> running. False when the assignment is no longer pending (then it is stopped). */
    async started(assignmentId: string, machineId: string): Promise<void> {
      await run(async (tx, after) => {
        const rows = await tx.all<{ task_id: string; workspace_id: string; status: string }>(
          'select task_id, workspace_id, status from task_assignments where id = ? and machine_id = ?',
          [assignmentId, machineId],
        );
        const row = rows[0];
        if (!row) return;
        await lockTask(tx, row.task_id);
        const moved = await tx.all(
          `update task_assignments set status = 'running', started_at = now() where id = ? and status in (${mayStart}) returning id`,
          [assignmentId],
        );
        if (moved.length > 0) {
          await writeOutbox(tx, { workspaceId: row.workspace_id, event: 'assignment.started', taskId: row.task_id, payload: { assignment_id: assignmentId, machine_id: machineId } });
        } else if (row.status !== 'running') {
          // An assign that arrived after its run was cancelled or ended: stop it, so the machine is not double booked.
          after.push(() => effects.command(machineId, { type: 'cancel', assignmentId }));
        }
      });
    },

    /**
     * The agent ended an assignment (or confirmed a cancel). A summary that does not check out fails the assignment
     * with the reason and is not stored. The task settles when this was its last active assignment.
     */
    async finishAssignment(assignmentId: string, machineId: string | null, result: AssignmentResult): Promise<boolean> {
      const problem = result.summary ? snapshotProblem(result.summary) : null;
      return run(async (tx, after) => {
        const rows = await tx.all<{ task_id: string }>(
          `select task_id from task_assignments where id = ?${machineId ? ' and machine_id = ?' : ''}`,
          machineId ? [assignmentId, machineId] : [assignmentId],
        );
        if (!rows[0]) return false;
        const task = await lockTask(tx, rows[0].task_id);
        if (!task) return false;
        const current = (await tx.all<AssignmentRow>('select id, task_id, machine_id, status, reason, summary from task_assignments where id = ? for update', [assignmentId]))[0]!;
        if (isTerminal(current.status)) return false;
        const stopping = canMoveAssignment(current.status, 'cancelled');
        const status: Final = stopping ? 'cancelled' : problem ? 'failed' : result.status;
        const reason = problem
          ? `the agent sent an invalid summary: ${problem}`
          : stopping
            ? (current.reason ?? 'cancelled')
            : (result.reason ?? null);
        await tx.all(
          `update task_assignments set status = ?, reason = ?, exit_code = ?, summary = ?::jsonb, finished_at = now() where id = ?`,
          [status, reason, result.exitCode ?? null, !problem && result.summary ? JSON.stringify(result.summary) : null, assignmentId],
        );
        await writeOutbox(tx, {
          workspaceId: task.workspace_id,
          event: 'assignment.finished',
          taskId: task.id,
          payload: { assignment_id: assignmentId, machine_id: current.machine_id, status, reason },
        });
        after.push(() => effects.wake());
        if (isTerminal(task.status)) {
          if (!problem && result.summary) await refreshFigures(tx, task.id);
        } else if (await settle(tx, task)) after.push(() => effects.finished(task.id));
        return true;
      });
    },

    /** The tool could not start on a machine: the whole run fails with an `error` event, the rest of it is stopped. */
    async failToStart(assignmentId: string, machineId: string, message: string): Promise<void> {
      await run(async (tx, after) => {
        const rows = await tx.all<{ task_id: string }>('select task_id from task_assignments where id = ? and machine_id = ?', [assignmentId, machineId]);
        if (!rows[0]) return;
        const task = await lockTask(tx, rows[0].task_id);
        if (!task) return;
        const ended = await tx.all(
          `update task_assignments set status = ${endedStatus},
             reason = coalesce(reason, ?), finished_at = now() where id = ? and status in (${active}) returning id`,
          [message, assignmentId, ...activeList],
        );
        if (ended.length === 0) return;
        after.push(() => effects.wake());
        if (isTerminal(task.status)) return;
        await stopAssignments(tx, task.id, after, `another machine of this run could not start: ${message}`);
        await finishTask(tx, task, 'failed', { message, startFailed: true });
        after.push(() => effects.finished(task.id));
      });
    },

    /** DELETE /tasks/:id: the task is cancelled at once; running assignments stay `cancelling` until their agents confirm. */
    async cancel(taskId: string): Promise<void> {
      await run(async (tx, after) => {
        const task = await lockTask(tx, taskId);
        if (!task || !canMove(task.status, 'cancelled')) return;
        await stopAssignments(tx, taskId, after, 'cancelled');
        await finishTask(tx, task, 'cancelled', null);
        after.push(() => effects.finished(taskId));
      });
    },

    /**
     * An abort threshold failed while the run goes (the live check saw it on the stored intervals): judged again here on
     * the figures so far, with the task locked, and if it still fails the run ends failed at once, naming it, and its
     * agents are told to stop (as for a cancel; the machines stay busy until they confirm). False when nothing changed.
     */
    async stopForThresholds(taskId: string): Promise<boolean> {
      return run(async (tx, after) => {
        const task = await lockTask(tx, taskId);
        if (!task || task.status !== 'running') return false;
        const thresholds = storedThresholds(task.thresholds);
        if (!thresholds.some((t) => t.abort)) return false;
        const assignments = await tx.all<AssignmentRow>('select id, task_id, machine_id, status, reason, summary from task_assignments where task_id = ?', [task.id]);
        const snapshots = await snapshotsOf(tx, task.id, assignments);
        const measured = { total: mergeSummaries(snapshots), endpoints: await endpointFiguresOf(tx, task.id) };
        const failing = liveFailures(evaluateThresholds(liveAbortThresholds(thresholds, measuredSeconds(snapshots)), measured));
        if (failing.length === 0) return false;
        const message = `${thresholdFailureMessage(failing)}; the run was stopped early (abort)`;
        await stopAssignments(tx, task.id, after, message);
        await finishTask(tx, task, 'failed', { message, startFailed: false }, { kind: 'stopped', figures: measured.total, results: evaluateThresholds(thresholds, measured) });
        after.push(() => effects.finished(task.id));
        return true;
      });
    },

    /** Fails a task that cannot run (its test or a requested machine vanished, or it waited past its deadline). */
    async failPending(taskId: string, message: string): Promise<void> {
      await run(async (tx, after) => {
        const task = await lockTask(tx, taskId);
        if (!task || task.status !== 'pending') return;
        await finishTask(tx, task, 'failed', { message, startFailed: true });
        after.push(() => effects.finished(taskId));
      });
    },

    /**
     * Ends assignments whose agent is gone: running/pending ones fail with the reason, cancelling ones are
     * cancelled (nothing is left to stop). Their tasks settle.
     */
    async agentLost(assignmentId: string, reason: string): Promise<void> {
      await run(async (tx, after) => {
        const rows = await tx.all<{ task_id: string }>('select task_id from task_assignments where id = ?', [assignmentId]);
        if (!rows[0]) return;
        const task = await lockTask(tx, rows[0].task_id);
        if (!task) return;
        const ended = await tx.all<{ machine_id: string; status: string }>(
          `update task_assignments set status = ${endedStatus},
             reason = case when status in (${stopAsked}) then coalesce(reason, 'cancelled') else ? end, finished_at = now()
           where id = ? and status in (${active}) returning machine_id, status`,
          [reason, assignmentId, ...activeList],
        );
        if (ended.length === 0) return;
        await writeOutbox(tx, {
          workspaceId: task.workspace_id,
          event: 'assignment.finished',
          taskId: task.id,
          payload: { assignment_id: assignmentId, machine_id: ended[0]!.machine_id, status: ended[0]!.status, reason },
        });
        after.push(() => effects.wake());
        if (await settle(tx, task)) after.push(() => effects.finished(task.id));
      });
    },

    /**
     * Stores why pending tasks wait (the dispatcher's words). Not a transition, so no outbox row: a note on a task that
     * stays pending, written only while it still is (a claim or cancel that committed first wins; each clears it in its
     * own transaction). Rows a transition holds are skipped, not waited for: two replicas writing overlapping batches
     * never deadlock, and what was skipped is written by a later pass if it still holds. Returns what was written.
     */
    async annotatePending(entries: readonly { taskId: string; reason: string }[]) {
      if (entries.length === 0) return [];
      return sqlOf(deps.db).all<{ id: string; workspace_id: string; reason: string; previous: string | null }>(
        `with given as (select * from jsonb_to_recordset(?::jsonb) as g(id uuid, reason text)),
         locked as (
           select t.id, t.pending_reason as previous from tasks t join given g on g.id = t.id
           where t.status = 'pending' and t.pending_reason is distinct from g.reason
           for update of t skip locked)
         update tasks t set pending_reason = g.reason from given g, locked l
         where t.id = g.id and l.id = t.id
         returning t.id, t.workspace_id, t.pending_reason as reason, l.previous`,
        [JSON.stringify(entries.map((e) => ({ id: e.taskId, reason: e.reason })))],
      );
    },

    /** A running task with no active assignment left (a crash between steps): settle it now. */
    async settleTask(taskId: string): Promise<void> {
      await run(async (tx, after) => {
        const task = await lockTask(tx, taskId, true);
        if (task && (await settle(tx, task))) after.push(() => effects.finished(taskId));
      });
    },
  };
}

export type RunLifecycle = ReturnType<typeof createRunLifecycle>;
