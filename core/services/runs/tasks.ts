/** Task use cases: start a run (pending, then dispatched), list, look up by UUID or public id, cancel. */
import { type EntityManager, raw } from '@mikro-orm/core';
import { limitsOf } from '../../domain/plans.ts';
import { LoadConfigEntity } from '../../domain/entities/load-config.ts';
import { Machine } from '../../domain/entities/machine.ts';
import { Task } from '../../domain/entities/task.ts';
import { TestDefinition } from '../../domain/entities/test-definition.ts';
import { isPublicId } from '../../domain/public-id.ts';
import { isTerminal } from '../../domain/run-state.ts';
import { badRequest, DomainError, notFound } from '../../kernel/errors.ts';
import { type AuditTarget, recordAudit } from '../audit-log.ts';
import type { Caller } from '../caller.ts';
import type { PageFilter } from '../machines.ts';
import { sqlOf, transaction, type Tx } from '../sql.ts';
import { isUuid, lockWorkspace } from '../workspace-scope.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { LoadTool } from '../../capabilities/load-tool.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Database } from '../../ports/database.ts';
import type { RunSettings } from './run-settings.ts';
import type { RunLifecycle } from './run-lifecycle.ts';

export interface StartRunInput {
  testId: string;
  transport?: 'sse' | 'ws' | 'long_polling';
  machineIds?: string[];
  configId?: string;
  /** Seconds the task may wait for a machine before it fails; the service default when absent. */
  pendingTimeout?: number;
}

/** Who starts a run: a member through the API, or a schedule (the service itself, on the schedule's behalf). */
export interface RunStarter {
  workspaceId: string;
  plan: string;
  /** The run's `created_by`: the member, or the schedule's creator. */
  userId: string | null;
  scheduleId: string | null;
  /** Writes the run's audit entry (action run.started) in the transaction's unit of work. */
  audit(em: EntityManager, target: AuditTarget, details: Record<string, unknown>): void;
}

interface PreparedRun {
  input: StartRunInput;
  test: TestDefinition;
  machineIds: string[];
}

/** Narrows the task list: runs of one test, in one status, or on one machine (assigned, or asked for while pending). */
export interface TaskListFilter {
  testId?: string;
  status?: string;
  machineId?: string;
}

function taskListConditions(filter: TaskListFilter): object[] {
  const conditions: object[] = [];
  if (filter.testId) conditions.push({ testId: filter.testId.toLowerCase() });
  if (filter.status) conditions.push({ status: filter.status });
  if (filter.machineId) {
    const machineId = filter.machineId.toLowerCase();
    conditions.push({
      [raw(
        (alias: string) =>
          `(exists (select 1 from task_assignments a where a.task_id = ${alias}.id and a.machine_id = ?) or ${alias}.requested_machine_ids @> ?::jsonb)`,
        [machineId, JSON.stringify([machineId])],
      )]: [],
    });
  }
  return conditions;
}

export interface TaskServiceDeps {
  db: Database;
  /** `run:created` is called once the start committed. */
  hooks: Pick<HookBus<KernelHooks>, 'callHook'>;
  /** The registered load tools by id: a test's tool must be one, and checks its script. */
  tools: ReadonlyMap<string, Pick<LoadTool, 'validateScript'>>;
  settings: Pick<RunSettings, 'pendingTimeoutSeconds'>;
  lifecycle: Pick<RunLifecycle, 'create' | 'cancel'>;
  dispatcher: Dispatcher;
}

export function createTaskService(deps: TaskServiceDeps) {
  const { lifecycle, dispatcher } = deps;
  /** The checks of a start that need no lock: the test and its script, the machines, the config. */
  async function prepare(em: EntityManager, workspaceId: string, input: StartRunInput): Promise<PreparedRun> {
    if (!isUuid(input.testId)) throw notFound('test');
    const test = await em.findOne(TestDefinition, { id: input.testId.toLowerCase(), workspaceId, deletedAt: null });
    if (!test) throw notFound('test');
    const tool = deps.tools.get(test.tool);
    if (!tool) {
      throw new DomainError('bad_request', `running ${test.tool} tests is not supported yet; supported tools: ${[...deps.tools.keys()].sort().join(', ')}`);
    }
    const problem = tool.validateScript(test.script);
    if (problem) throw badRequest(`the test's script cannot run: ${problem}`, { field: 'script' });
    const machineIds = [...new Set((input.machineIds ?? []).map((id) => id.toLowerCase()))];
    if (machineIds.length > 50) throw badRequest('at most 50 machines per task', { field: 'machineIds' });
    if (machineIds.length > 0) {
      const found = machineIds.every(isUuid) ? await em.find(Machine, { id: { $in: machineIds }, workspaceId }) : [];
      const missing = machineIds.find((id) => !found.some((m) => m.id === id));
      // An empty id is missing too (`find` returns it, and '' is falsy).
      if (missing !== undefined) throw notFound(`machine ${JSON.stringify(missing)}`);
    }
    if (input.configId !== undefined) {
      if (!isUuid(input.configId) || !(await em.findOne(LoadConfigEntity, { id: input.configId.toLowerCase(), workspaceId }))) {
        throw notFound('config');
      }
    }
    return { input, test, machineIds };
  }

  /** Inserts the pending task, its audit entry and outbox row in `tx`, under the workspace's pending-task cap. */
  async function insert(tx: Tx, starter: RunStarter, { input, test, machineIds }: PreparedRun): Promise<string> {
    const { workspaceId, plan } = starter;
    const waitSeconds = input.pendingTimeout ?? deps.settings.pendingTimeoutSeconds ?? 0;
    const cap = limitsOf(plan).pendingTasks;
    const id = crypto.randomUUID();
    // The workspace row's lock makes the cap exact when requests race.
    await lockWorkspace(tx.em, workspaceId);
    const [{ pending }] = (await tx.all<{ pending: number }>(`select count(*)::int as pending from tasks where workspace_id = ? and status = 'pending'`, [
      workspaceId,
    ])) as [{ pending: number }];
    if (pending >= cap) {
      throw new DomainError(
        'too_many_pending_tasks',
        `this workspace already has ${pending} tasks waiting for a machine (the ${plan} plan allows ${cap}); wait for some to start or cancel them`,
      );
    }
    const task = await lifecycle.create(tx, {
      id,
      workspaceId,
      testId: test.id,
      configId: input.configId?.toLowerCase() ?? null,
      scheduleId: starter.scheduleId,
      // Long polling is not implemented: it falls back to SSE (spec rule 2).
      transport: input.transport === 'ws' ? 'ws' : 'sse',
      machineIds,
      createdBy: starter.userId,
      // The test's thresholds now: editing the test later leaves this run's verdict as it is.
      thresholds: [...(test.thresholds ?? [])],
      pendingUntil: waitSeconds > 0 ? new Date(Date.now() + waitSeconds * 1000) : null,
    });
    const details = { test_id: test.id, machine_ids: machineIds, ...(starter.scheduleId ? { schedule_id: starter.scheduleId } : {}) };
    starter.audit(tx.em, { type: 'task', id, label: `${test.name} (${task.publicId})` }, details);
    await tx.em.flush();
    return id;
  }

  /** After the task's transaction committed: the hook, and a dispatch pass right away (the answer can name its machine). */
  async function announce(id: string): Promise<void> {
    const [row] = await sqlOf(deps.db).all<{ workspace_id: string }>('select workspace_id from tasks where id = ?', [id]);
    if (!row) return;
    await deps.hooks.callHook('run:created', { workspaceId: row.workspace_id, taskId: id });
    await dispatcher.kick();
  }

  async function find(workspaceId: string, id: string): Promise<Task> {
    const key = id.trim().toLowerCase();
    const filter = isUuid(key) ? { id: key } : isPublicId(key) ? { publicId: key } : null;
    if (!filter) throw notFound('task');
    const task = await deps.db.fork().findOne(Task, { ...filter, workspaceId });
    if (!task) throw notFound('task');
    return task;
  }

  return {
    find: (caller: Caller, id: string) => find(caller.workspace.workspaceId, id),

    async list(caller: Caller, page: PageFilter, filter: TaskListFilter = {}) {
      return deps.db.fork().find(
        Task,
        { workspaceId: caller.workspace.workspaceId, $and: [page.filter, ...taskListConditions(filter)] },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
    },

    async start(caller: Caller, input: StartRunInput): Promise<Task> {
      const prepared = await prepare(deps.db.fork(), caller.workspace.workspaceId, input);
      const starter: RunStarter = {
        workspaceId: caller.workspace.workspaceId,
        plan: caller.workspace.plan,
        userId: caller.userId,
        scheduleId: null,
        audit: (em, target, details) => recordAudit(em, caller, 'run.started', target, details),
      };
      const id = await transaction(deps.db, (tx) => insert(tx, starter, prepared));
      await announce(id);
      const created = await deps.db.fork().findOneOrFail(Task, { id });
      if (created.status !== 'pending' || created.pendingReason) return created;
      // Behind a queue longer than a dispatch pass looks at: explained on its own, so the answer says why too.
      await dispatcher.explain([id]);
      return deps.db.fork().findOneOrFail(Task, { id });
    },

    /**
     * Starts a run inside the caller's transaction (a schedule's firing, which advances the schedule in the same one):
     * the same checks, plan cap and audit as POST /tasks. Call `announce` with the id once the transaction committed.
     */
    async startIn(tx: Tx, starter: RunStarter, input: StartRunInput): Promise<string> {
      return insert(tx, starter, await prepare(tx.em, starter.workspaceId, input));
    },

    announce,

    async cancel(caller: Caller, id: string): Promise<void> {
      const task = await find(caller.workspace.workspaceId, id);
      // Cancelling a finished run changes nothing; the answer is the same 204 (idempotent DELETE).
      if (isTerminal(task.status)) return;
      const em = deps.db.fork();
      recordAudit(em, caller, 'run.cancelled', { type: 'task', id: task.id, label: task.publicId });
      await em.flush();
      await lifecycle.cancel(task.id);
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
