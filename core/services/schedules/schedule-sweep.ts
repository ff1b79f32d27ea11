/**
 * Fires due schedules. Each firing is one transaction: claim one due schedule (FOR UPDATE SKIP LOCKED), start its run
 * through the same code as POST /tasks (plan cap, audit, outbox), and move `next_run_at` to the first run after now.
 * Any replica may sweep, several at once (the job, a test); the claim, and `next_run_at` moved in the same
 * transaction, make each due time fire once.
 * A schedule due several times while the service was down fires once, at the next sweep (its next time is computed
 * from now, not from the time it missed). Safe to run twice and on several replicas at once.
 */
import { AuditEntry } from '../../domain/entities/audit-entry.ts';
import { CronError } from '../../domain/cron.ts';
import { DomainError } from '../../kernel/errors.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { JobQueue } from '../../ports/job-queue.ts';
import type { TaskService } from '../runs/tasks.ts';
import { transaction } from '../sql.ts';
import { nextRunOf } from './schedules.ts';

export const scheduleSweepJob = 'schedules:fire';
/** How often every replica looks for due schedules: a run starts within this of its minute. */
export const scheduleSweepEveryMillis = 5_000;

interface DueRow {
  id: string;
  workspace_id: string;
  test_id: string;
  cron: string;
  timezone: string;
  config_id: string | null;
  machine_ids: string[] | string;
  created_by: string | null;
  plan: string;
  workspace_status: string;
}

type Fired = { schedule: DueRow; taskId: string | null; error: string | null };

export interface ScheduleSweepDeps {
  db: Database;
  tasks: Pick<TaskService, 'startIn' | 'announce'>;
  logger: Logger;
  now?: () => Date;
  /** Firings per sweep at most (the rest wait for the next one). */
  batch?: number;
}

export function createScheduleSweep(deps: ScheduleSweepDeps) {
  const now = deps.now ?? (() => new Date());
  const batch = deps.batch ?? 100;

  /** Claims one due schedule and fires it; null when none is due (or every due one is being fired elsewhere). */
  async function fireOne(at: Date): Promise<Fired | null> {
    return transaction(deps.db, async (tx) => {
      const [schedule] = await tx.all<DueRow>(
        `select s.id, s.workspace_id, s.test_id, s.cron, s.timezone, s.config_id, s.machine_ids, s.created_by,
                w.plan, w.status as workspace_status
           from schedules s join workspaces w on w.id = s.workspace_id
          where s.enabled and s.next_run_at <= ?::timestamptz
          order by s.next_run_at, s.id limit 1
          for update of s skip locked`,
        [at.toISOString()],
      );
      if (!schedule) return null;
      let taskId: string | null = null;
      let error: string | null = null;
      let enabled = true;
      if (schedule.workspace_status !== 'active') {
        error = 'the workspace is suspended';
      } else {
        try {
          const machineIds = typeof schedule.machine_ids === 'string' ? (JSON.parse(schedule.machine_ids) as string[]) : schedule.machine_ids;
          taskId = await deps.tasks.startIn(
            tx,
            {
              workspaceId: schedule.workspace_id,
              plan: schedule.plan,
              userId: schedule.created_by,
              scheduleId: schedule.id,
              audit: (em, target, details) =>
                em.create(AuditEntry, {
                  id: crypto.randomUUID(),
                  workspaceId: schedule.workspace_id,
                  action: 'run.started',
                  actorType: 'system',
                  actorId: schedule.id,
                  actorLabel: `schedule ${schedule.cron} (${schedule.timezone})`,
                  actorUserId: schedule.created_by,
                  targetType: target.type,
                  targetId: target.id ?? null,
                  targetLabel: target.label ?? null,
                  details,
                  createdAt: new Date(),
                }),
            },
            { testId: schedule.test_id, machineIds, ...(schedule.config_id ? { configId: schedule.config_id } : {}) },
          );
        } catch (failure) {
          // Expected refusals (too many tasks waiting, a machine or config deleted, a script that no longer runs) are
          // the schedule's last_error; nothing was written before them. Anything else rolls the firing back.
          if (!(failure instanceof DomainError)) throw failure;
          error = failure.message;
          // Its test is gone: it would never run again.
          if (failure.code === 'not_found' && failure.message === 'test not found') enabled = false;
        }
      }
      const next = enabled ? nextRunOf({ cron: schedule.cron, timezone: schedule.timezone, enabled }, at) : null;
      await tx.all(
        `update schedules set next_run_at = ?::timestamptz, enabled = ?, last_run_at = ?::timestamptz,
                last_task_id = coalesce(?, last_task_id), last_error = ?, updated_at = now()
          where id = ?`,
        [next?.toISOString() ?? null, next !== null, at.toISOString(), taskId, error, schedule.id],
      );
      return { schedule, taskId, error };
    });
  }

  /** A firing that failed on a bug or the database: the schedule still moves on, so it cannot block the sweep. */
  async function skip(at: Date, failure: unknown): Promise<boolean> {
    return transaction(deps.db, async (tx) => {
      const [schedule] = await tx.all<{ id: string; cron: string; timezone: string }>(
        `select id, cron, timezone from schedules where enabled and next_run_at <= ?::timestamptz
          order by next_run_at, id limit 1 for update skip locked`,
        [at.toISOString()],
      );
      if (!schedule) return false;
      let next: Date | null = null;
      try {
        next = nextRunOf({ ...schedule, enabled: true }, at);
      } catch (error) {
        if (!(error instanceof CronError)) throw error;
      }
      deps.logger.error('a schedule could not start its run', { scheduleId: schedule.id, error: String(failure) });
      await tx.all(
        `update schedules set next_run_at = ?::timestamptz, enabled = ?, last_run_at = ?::timestamptz, last_error = ? where id = ?`,
        [next?.toISOString() ?? null, next !== null, at.toISOString(), 'the run could not be started (see the server log)', schedule.id],
      );
      return true;
    });
  }

  /** Fires every schedule due now (up to the batch); answers how many fired. */
  async function sweep(): Promise<number> {
    const at = now();
    let fired = 0;
    for (let i = 0; i < batch; i++) {
      let result: Fired | null;
      try {
        result = await fireOne(at);
      } catch (failure) {
        if (!(await skip(at, failure))) break;
        continue;
      }
      if (!result) break;
      fired++;
      if (result.error) {
        deps.logger.warn('a schedule was due but started no run', { scheduleId: result.schedule.id, error: result.error });
      } else if (result.taskId) {
        deps.logger.info('a schedule started a run', { scheduleId: result.schedule.id, taskId: result.taskId });
        // After the commit: the hook and a dispatch pass, as POST /tasks does.
        await deps.tasks.announce(result.taskId).catch((error) => deps.logger.warn('dispatching a scheduled run failed', { error: String(error) }));
      }
    }
    return fired;
  }

  /** Registers its job (on a replica that runs jobs): due schedules are fired every few seconds. */
  async function schedule(jobs: JobQueue, everyMillis = scheduleSweepEveryMillis): Promise<void> {
    jobs.define(scheduleSweepJob, async () => void (await sweep()));
    await jobs.every(scheduleSweepJob, everyMillis);
  }

  return { sweep, schedule };
}

export type ScheduleSweep = ReturnType<typeof createScheduleSweep>;
