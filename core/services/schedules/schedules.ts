/** Schedule use cases: list, create, change and delete the cron schedules of one workspace; this module owns their state. */
import { type EntityManager, LockMode } from '@mikro-orm/core';
import { canonicalTimeZone, CronError, nextRun, parseCron } from '../../domain/cron.ts';
import { LoadConfigEntity } from '../../domain/entities/load-config.ts';
import { Machine } from '../../domain/entities/machine.ts';
import { Schedule } from '../../domain/entities/schedule.ts';
import { TestDefinition } from '../../domain/entities/test-definition.ts';
import { limitsOf } from '../../domain/plans.ts';
import { badRequest, DomainError, notFound } from '../../kernel/errors.ts';
import type { Database } from '../../ports/database.ts';
import { recordAudit } from '../audit-log.ts';
import type { Caller } from '../caller.ts';
import type { PageFilter } from '../machines.ts';
import { findInWorkspace, isUuid, lockWorkspace } from '../workspace-scope.ts';

export interface ScheduleInput {
  test_id: string;
  cron: string;
  /** IANA time zone; UTC when absent. */
  timezone?: string;
  config_id?: string | null;
  machine_ids?: string[];
  enabled?: boolean;
}

export type ScheduleChanges = Partial<ScheduleInput>;

export const maxScheduleMachines = 50;

export function toScheduleView(schedule: Schedule) {
  return {
    id: schedule.id,
    test_id: schedule.testId,
    cron: schedule.cron,
    timezone: schedule.timezone,
    config_id: schedule.configId ?? null,
    machine_ids: schedule.machineIds,
    enabled: schedule.enabled,
    next_run_at: schedule.nextRunAt?.toISOString() ?? null,
    last_task_id: schedule.lastTaskId ?? null,
    last_run_at: schedule.lastRunAt?.toISOString() ?? null,
    last_error: schedule.lastError ?? null,
    created_at: schedule.createdAt.toISOString(),
    updated_at: schedule.updatedAt.toISOString(),
  };
}

/** A cron expression as stored (fields single-spaced), or a 400 naming the field. */
export function checkCron(cron: string): string {
  const normalized = cron.trim().split(/\s+/).join(' ');
  if (normalized.length > 200) throw badRequest('cron is longer than 200 characters', { field: 'cron' });
  try {
    parseCron(normalized);
  } catch (error) {
    if (error instanceof CronError) throw badRequest(`cron is not a valid 5-field expression: ${error.message}`, { field: 'cron' });
    throw error;
  }
  return normalized;
}

/** A time zone's canonical IANA name, or a 400 naming the field. */
export function checkTimeZone(timezone: string): string {
  const canonical = canonicalTimeZone(timezone.trim());
  if (!canonical) throw badRequest(`timezone ${JSON.stringify(timezone.slice(0, 80))} is not an IANA time zone (e.g. UTC, Europe/Berlin)`, { field: 'timezone' });
  return canonical;
}

/** When an enabled schedule runs next after `at`; null when disabled. */
export function nextRunOf(schedule: Pick<Schedule, 'cron' | 'timezone' | 'enabled'>, at: Date): Date | null {
  return schedule.enabled ? nextRun(parseCron(schedule.cron), schedule.timezone, at) : null;
}

export function createScheduleService(deps: { db: Database; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  /** The test, config and machines a schedule names, each of the caller's workspace (another's: the plain 404). */
  async function checkTargets(em: EntityManager, workspaceId: string, input: ScheduleChanges): Promise<void> {
    if (input.test_id !== undefined) {
      await findInWorkspace(em, TestDefinition, workspaceId, input.test_id, 'test', { deletedAt: null });
    }
    if (input.config_id !== undefined && input.config_id !== null) {
      await findInWorkspace(em, LoadConfigEntity, workspaceId, input.config_id, 'config');
    }
    if (input.machine_ids !== undefined && input.machine_ids.length > 0) {
      const ids = input.machine_ids;
      const found = ids.every(isUuid) ? await em.find(Machine, { id: { $in: ids }, workspaceId }) : [];
      const missing = ids.find((id) => !found.some((m) => m.id === id));
      if (missing !== undefined) throw notFound(`machine ${JSON.stringify(missing)}`);
    }
  }

  /** Machine ids lower-cased, without repeats, at most 50. */
  function checkMachines(ids: readonly string[] | undefined): string[] | undefined {
    if (ids === undefined) return undefined;
    const unique = [...new Set(ids.map((id) => id.trim().toLowerCase()))];
    if (unique.length > maxScheduleMachines) throw badRequest(`machine_ids holds at most ${maxScheduleMachines} machines`, { field: 'machine_ids' });
    return unique;
  }

  return {
    async list(caller: Caller, page: PageFilter): Promise<Schedule[]> {
      return deps.db.fork().find(
        Schedule,
        { workspaceId: caller.workspace.workspaceId, ...page.filter },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
    },

    async get(caller: Caller, id: string): Promise<Schedule> {
      return findInWorkspace(deps.db.fork(), Schedule, caller.workspace.workspaceId, id, 'schedule');
    },

    async create(caller: Caller, input: ScheduleInput): Promise<Schedule> {
      const workspaceId = caller.workspace.workspaceId;
      const cron = checkCron(input.cron);
      const timezone = checkTimeZone(input.timezone ?? 'UTC');
      const machineIds = checkMachines(input.machine_ids) ?? [];
      const configId = input.config_id?.trim().toLowerCase() || null;
      const testId = input.test_id.trim().toLowerCase();
      const limit = limitsOf(caller.workspace.plan).schedules;
      return deps.db.fork().transactional(async (em) => {
        await checkTargets(em, workspaceId, { test_id: testId, config_id: configId, machine_ids: machineIds });
        // The workspace row's lock makes the plan limit exact when creations race.
        await lockWorkspace(em, workspaceId);
        if (limit !== null && (await em.count(Schedule, { workspaceId })) >= limit) {
          throw new DomainError('plan_limit_schedules', `the ${caller.workspace.plan} plan allows ${limit} schedules`);
        }
        const at = now();
        const enabled = input.enabled ?? true;
        const schedule = em.create(Schedule, {
          id: crypto.randomUUID(),
          workspaceId,
          testId,
          cron,
          timezone,
          configId,
          machineIds,
          enabled,
          nextRunAt: nextRunOf({ cron, timezone, enabled }, at),
          lastRunAt: null,
          lastTaskId: null,
          lastError: null,
          createdBy: caller.userId,
          // Real time, not the schedules' clock: lists page by it.
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        recordAudit(em, caller, 'schedule.created', { type: 'schedule', id: schedule.id, label: `${cron} (${timezone})` }, { test_id: testId, enabled });
        return schedule;
      });
    },

    async update(caller: Caller, id: string, changes: ScheduleChanges): Promise<Schedule> {
      const workspaceId = caller.workspace.workspaceId;
      const fields = ['test_id', 'cron', 'timezone', 'config_id', 'machine_ids', 'enabled'] as const;
      if (fields.every((field) => changes[field] === undefined)) throw badRequest(`nothing to change: send any of ${fields.join(', ')}`);
      const cron = changes.cron === undefined ? undefined : checkCron(changes.cron);
      const timezone = changes.timezone === undefined ? undefined : checkTimeZone(changes.timezone);
      const machineIds = checkMachines(changes.machine_ids);
      const testId = changes.test_id?.trim().toLowerCase();
      const configId = changes.config_id === undefined ? undefined : changes.config_id?.trim().toLowerCase() || null;
      return deps.db.fork().transactional(async (em) => {
        // Locked: a sweep firing it meanwhile either commits first (and this computes from its state) or waits.
        const schedule = await findInWorkspace(em, Schedule, workspaceId, id, 'schedule', {}, { lockMode: LockMode.PESSIMISTIC_WRITE });
        await checkTargets(em, workspaceId, { test_id: testId, config_id: configId, machine_ids: machineIds });
        if (testId !== undefined) schedule.testId = testId;
        if (cron !== undefined) schedule.cron = cron;
        if (timezone !== undefined) schedule.timezone = timezone;
        if (configId !== undefined) schedule.configId = configId;
        if (machineIds !== undefined) schedule.machineIds = machineIds;
        if (changes.enabled !== undefined) schedule.enabled = changes.enabled;
        const at = now();
        // A changed time (or a schedule enabled again) runs next from now on: what it missed while disabled never runs.
        if (cron !== undefined || timezone !== undefined || changes.enabled !== undefined) schedule.nextRunAt = nextRunOf(schedule, at);
        schedule.updatedAt = new Date();
        const changed = fields.filter((field) => changes[field] !== undefined);
        recordAudit(em, caller, 'schedule.updated', { type: 'schedule', id: schedule.id, label: `${schedule.cron} (${schedule.timezone})` }, { changed });
        return schedule;
      });
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const em = deps.db.fork();
      const schedule = await findInWorkspace(em, Schedule, caller.workspace.workspaceId, id, 'schedule');
      em.remove(schedule);
      recordAudit(em, caller, 'schedule.deleted', { type: 'schedule', id: schedule.id, label: `${schedule.cron} (${schedule.timezone})` }, { test_id: schedule.testId });
      await em.flush();
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
