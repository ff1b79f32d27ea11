/** Test-definition use cases: list, create, edit and (softly) delete the tests of one workspace. */
import { TestDefinition } from '../domain/entities/test-definition.ts';
import { checkName, checkScript, type TestStatus, type TestTool } from '../domain/test-rules.ts';
import { limitsOf } from '../../config/plans.ts';
import { badRequest, DomainError } from '../kernel/errors.ts';
import type { HookBus } from '../kernel/hook-bus.ts';
import type { KernelHooks } from '../kernel/hooks.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import type { PageFilter } from './machines.ts';
import { findInWorkspace } from './workspace-scope.ts';

export interface TestInput {
  name: string;
  tool: TestTool;
  script: string;
  status?: TestStatus;
}

export interface TestChanges {
  name?: string;
  script?: string;
  status?: TestStatus;
}

export function createTestDefinitionService(deps: { db: Database; hooks: HookBus<KernelHooks> }) {
  return {
    async list(caller: Caller, page: PageFilter): Promise<TestDefinition[]> {
      return deps.db.fork().find(
        TestDefinition,
        { workspaceId: caller.workspace.workspaceId, deletedAt: null, ...page.filter },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
    },

    async create(caller: Caller, input: TestInput): Promise<TestDefinition> {
      const workspaceId = caller.workspace.workspaceId;
      const em = deps.db.fork();
      const limit = limitsOf(caller.workspace.plan).tests;
      if (limit !== null && (await em.count(TestDefinition, { workspaceId, deletedAt: null })) >= limit) {
        throw new DomainError('plan_limit_tests', `the ${caller.workspace.plan} plan allows ${limit} tests`);
      }
      const now = new Date();
      const test = em.create(TestDefinition, {
        id: crypto.randomUUID(),
        workspaceId,
        name: checkName(input.name),
        tool: input.tool,
        status: input.status ?? 'draft',
        script: checkScript(input.script),
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      recordAudit(em, caller, 'test.created', { type: 'test', id: test.id, label: test.name }, { tool: test.tool });
      await em.flush();
      await deps.hooks.callHook('test:created', { workspaceId, testId: test.id });
      return test;
    },

    async update(caller: Caller, id: string, changes: TestChanges): Promise<TestDefinition> {
      const em = deps.db.fork();
      const test = await findInWorkspace(em, TestDefinition, caller.workspace.workspaceId, id, 'test', { deletedAt: null });
      if (changes.name === undefined && changes.script === undefined && changes.status === undefined) {
        throw badRequest('nothing to change: send any of name, script, status');
      }
      if (changes.name !== undefined) test.name = checkName(changes.name);
      if (changes.script !== undefined) test.script = checkScript(changes.script);
      if (changes.status !== undefined) test.status = changes.status;
      test.updatedAt = new Date();
      await em.flush();
      return test;
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const workspaceId = caller.workspace.workspaceId;
      const em = deps.db.fork();
      const test = await findInWorkspace(em, TestDefinition, workspaceId, id, 'test', { deletedAt: null });
      // Soft delete: runs that refer to the test keep working (spec: deleting a test does not affect its tasks).
      test.deletedAt = new Date();
      recordAudit(em, caller, 'test.deleted', { type: 'test', id: test.id, label: test.name });
      await em.flush();
      await deps.hooks.callHook('test:deleted', { workspaceId, testId: test.id });
    },
  };
}

export type TestDefinitionService = ReturnType<typeof createTestDefinitionService>;
