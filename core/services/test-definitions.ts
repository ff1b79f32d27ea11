/** Test-definition use cases: list, create, edit and (softly) delete the tests of one workspace. */
import { Task } from '../domain/entities/task.ts';
import { Schedule } from '../domain/entities/schedule.ts';
import { TestDefinition } from '../domain/entities/test-definition.ts';
import { isPublicId } from '../domain/public-id.ts';
import { isFinishedRun } from '../domain/run-state.ts';
import { checkName, checkScript, checkTool, type TestStatus, type TestTool } from '../domain/test-rules.ts';
import { checkThresholds, storedThresholds } from '../domain/thresholds.ts';
import { limitsOf } from '../domain/plans.ts';
import { badRequest, DomainError, notFound } from '../kernel/errors.ts';
import type { HookBus } from '../kernel/hook-bus.ts';
import type { KernelHooks } from '../kernel/hooks.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import type { PageFilter } from './machines.ts';
import { findInWorkspace, isUuid, lockWorkspace } from './workspace-scope.ts';

/** What a list needs of a test: the API view's fields. */
export type TestRow = Pick<TestDefinition, 'id' | 'name' | 'tool' | 'status' | 'script' | 'thresholds' | 'baselineTaskId' | 'createdAt' | 'updatedAt'>;

interface RawTestRow {
  id: string;
  name: string;
  tool: string;
  status: string;
  script: string;
  thresholds: unknown;
  baseline_task_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface TestInput {
  name: string;
  tool: TestTool;
  script: string;
  status?: TestStatus;
  /** Any JSON, checked here (`checkThresholds`): null or absent is none. */
  thresholds?: unknown;
}

export interface TestChanges {
  name?: string;
  script?: string;
  status?: TestStatus;
  /** Replaces the list (checked here); null or [] removes them. */
  thresholds?: unknown;
}

export function createTestDefinitionService(deps: {
  db: Database;
  hooks: HookBus<KernelHooks>;
  /** The tool ids a test may use (`testToolIds`): the spec's six and every registered load tool's. */
  toolIds: readonly string[];
  /**
   * The loaded tools' own script checks (a .jmx that is no JMeter plan, a locustfile that does not parse): a test is
   * refused when saved, not only when started. A tool without a plugin here has no check yet.
   */
  validateScript?: (tool: string, script: string) => string | null;
}) {
  function checkToolScript(tool: string, script: string): string {
    const problem = deps.validateScript?.(tool, script) ?? null;
    if (problem) throw badRequest(`the script is not a valid ${tool} test: ${problem}`, { field: 'script' });
    return script;
  }

  return {
    /**
     * The hottest read of the API (tools poll it): one plain query mapped straight to rows, without the ORM's
     * entity hydration and identity map, which cost more than the query itself (docs/benchmarks.md).
     */
    async list(caller: Caller, page: PageFilter & { after?: { createdAt: Date; id: string } | null }): Promise<TestRow[]> {
      const after = page.after ?? null;
      const rows: RawTestRow[] = await deps.db.fork().getConnection().execute(
        `select id, name, tool, status, script, thresholds, baseline_task_id, created_at, updated_at from tests
         where workspace_id = ? and deleted_at is null${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        tool: row.tool,
        status: row.status,
        script: row.script,
        thresholds: storedThresholds(row.thresholds),
        baselineTaskId: row.baseline_task_id ?? null,
        createdAt: new Date(row.created_at),
        updatedAt: new Date(row.updated_at),
      }));
    },

    /** One test of the caller's workspace; another workspace's id, a deleted test or a malformed id: 404. */
    async get(caller: Caller, id: string): Promise<TestDefinition> {
      return findInWorkspace(deps.db.fork(), TestDefinition, caller.workspace.workspaceId, id, 'test', { deletedAt: null });
    },

    async create(caller: Caller, input: TestInput): Promise<TestDefinition> {
      const workspaceId = caller.workspace.workspaceId;
      // The script's check (the tool's own, some parse a whole plan) runs before the lock is taken.
      const fields = {
        name: checkName(input.name),
        tool: checkTool(input.tool, deps.toolIds),
        status: input.status ?? 'draft',
        script: checkToolScript(input.tool, checkScript(input.script)),
        thresholds: checkThresholds(input.thresholds),
      };
      const limit = limitsOf(caller.workspace.plan).tests;
      const test = await deps.db.fork().transactional(async (em) => {
        // The workspace row's lock makes the plan limit exact when creations (or a Git sync) race.
        await lockWorkspace(em, workspaceId);
        if (limit !== null && (await em.count(TestDefinition, { workspaceId, deletedAt: null })) >= limit) {
          throw new DomainError('plan_limit_tests', `the ${caller.workspace.plan} plan allows ${limit} tests`);
        }
        const now = new Date();
        const created = em.create(TestDefinition, {
          id: crypto.randomUUID(),
          workspaceId,
          ...fields,
          baselineTaskId: null,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        });
        recordAudit(em, caller, 'test.created', { type: 'test', id: created.id, label: created.name }, { tool: created.tool });
        return created;
      });
      await deps.hooks.callHook('test:created', { workspaceId, testId: test.id });
      return test;
    },

    async update(caller: Caller, id: string, changes: TestChanges): Promise<TestDefinition> {
      const em = deps.db.fork();
      const test = await findInWorkspace(em, TestDefinition, caller.workspace.workspaceId, id, 'test', { deletedAt: null });
      if (changes.name === undefined && changes.script === undefined && changes.status === undefined && changes.thresholds === undefined) {
        throw badRequest('nothing to change: send any of name, script, status, thresholds');
      }
      const thresholds = changes.thresholds === undefined ? undefined : checkThresholds(changes.thresholds);
      if (changes.name !== undefined) test.name = checkName(changes.name);
      if (changes.script !== undefined) test.script = checkToolScript(test.tool, checkScript(changes.script));
      if (changes.status !== undefined) test.status = changes.status;
      if (thresholds !== undefined) test.thresholds = thresholds;
      test.updatedAt = new Date();
      await em.flush();
      return test;
    },

    /**
     * Names a finished run of the test (its UUID or public id) as its baseline, replacing any. Another workspace's run,
     * or none: 404; a run of another test, or one that did not finish (pending, running, cancelled, never started): 400.
     */
    async setBaseline(caller: Caller, id: string, taskRef: string): Promise<TestDefinition> {
      const workspaceId = caller.workspace.workspaceId;
      const em = deps.db.fork();
      const test = await findInWorkspace(em, TestDefinition, workspaceId, id, 'test', { deletedAt: null });
      const key = taskRef.trim().toLowerCase();
      const filter = isUuid(key) ? { id: key } : isPublicId(key) ? { publicId: key } : null;
      const task = filter ? await em.findOne(Task, { ...filter, workspaceId }) : null;
      if (!task) throw notFound(`run ${JSON.stringify(taskRef)}`);
      if (task.testId !== test.id) {
        throw badRequest(`run ${task.publicId} is a run of another test: a baseline must be a run of this test`, { field: 'task_id' });
      }
      if (!isFinishedRun(task)) {
        const why = task.status === 'cancelled' ? 'was cancelled' : task.status === 'failed' ? 'never started' : `is ${task.status}, not finished`;
        throw badRequest(`run ${task.publicId} ${why}: a baseline must be a finished run (completed or failed)`, { field: 'task_id' });
      }
      test.baselineTaskId = task.id;
      test.updatedAt = new Date();
      recordAudit(em, caller, 'test.baseline_set', { type: 'test', id: test.id, label: test.name }, { task_id: task.id, public_id: task.publicId });
      await em.flush();
      return test;
    },

    /** Removes the test's baseline (none is fine: 204 either way). */
    async clearBaseline(caller: Caller, id: string): Promise<void> {
      const em = deps.db.fork();
      const test = await findInWorkspace(em, TestDefinition, caller.workspace.workspaceId, id, 'test', { deletedAt: null });
      if (test.baselineTaskId === null || test.baselineTaskId === undefined) return;
      test.baselineTaskId = null;
      test.updatedAt = new Date();
      recordAudit(em, caller, 'test.baseline_cleared', { type: 'test', id: test.id, label: test.name });
      await em.flush();
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const workspaceId = caller.workspace.workspaceId;
      const test = await deps.db.fork().transactional(async (em) => {
        const found = await findInWorkspace(em, TestDefinition, workspaceId, id, 'test', { deletedAt: null });
        // Soft delete: runs that refer to the test keep working (spec: deleting a test does not affect its tasks).
        found.deletedAt = new Date();
        recordAudit(em, caller, 'test.deleted', { type: 'test', id: found.id, label: found.name });
        // Its schedules go with it, in the same transaction: none fires for a test that is gone.
        await em.nativeDelete(Schedule, { workspaceId, testId: found.id });
        return found;
      });
      await deps.hooks.callHook('test:deleted', { workspaceId, testId: test.id });
    },
  };
}

export type TestDefinitionService = ReturnType<typeof createTestDefinitionService>;
