/** Sends pending tasks to free machines of their own workspace, oldest first; a task with no free machine waits. */
import type { Assignment } from '../../capabilities/load-tool.ts';
import { LoadConfigEntity } from '../../domain/entities/load-config.ts';
import { Machine } from '../../domain/entities/machine.ts';
import { Task } from '../../domain/entities/task.ts';
import { TaskAssignment } from '../../domain/entities/task-assignment.ts';
import { TestDefinition } from '../../domain/entities/test-definition.ts';
import { loadConfigOf } from '../configs.ts';
import type { RunContext } from './run-context.ts';
import { failToStart } from './run-lifecycle.ts';

export interface Dispatcher {
  /** Looks for work now; calls made while a pass runs schedule one more pass. */
  kick(): Promise<void>;
}

export function createDispatcher(ctx: RunContext): Dispatcher {
  let running: Promise<void> | null = null;
  let again = false;

  async function pass(): Promise<void> {
    const em = ctx.db.fork();
    const pending = await em.find(Task, { status: 'pending' }, { orderBy: { createdAt: 'asc' }, limit: 500 });
    if (pending.length === 0) return;
    // Machines busy with an active assignment are not free, whatever their last status says.
    const busy = new Set(
      (await em.find(TaskAssignment, { status: { $in: ['pending', 'running'] } }, { fields: ['machineId'] })).map((a) => a.machineId),
    );
    for (const task of pending) {
      const test = await em.findOne(TestDefinition, { id: task.testId });
      if (!test) {
        await failToStart(ctx, task, 'the test of this task no longer exists');
        continue;
      }
      const free = (machine: Machine) =>
        ctx.agents.has(machine.id) && !busy.has(machine.id) && machine.status !== 'offline' && machine.tools.includes(test.tool);
      let chosen: Machine[];
      if (task.requestedMachineIds.length > 0) {
        const requested = await em.find(Machine, { id: { $in: task.requestedMachineIds }, workspaceId: task.workspaceId });
        if (requested.length !== task.requestedMachineIds.length) {
          await failToStart(ctx, task, 'a requested machine was deleted before the task could start');
          continue;
        }
        const connected = requested.filter((m) => ctx.agents.has(m.id));
        const lacking = connected.find((m) => !m.tools.includes(test.tool));
        if (lacking) {
          await failToStart(ctx, task, `machine ${lacking.hostname} cannot run ${test.tool} (its agent has no ${test.tool} installed)`);
          continue;
        }
        if (!requested.every(free)) continue;
        chosen = requested;
      } else {
        const candidates = await em.find(Machine, { workspaceId: task.workspaceId, status: 'online' }, { orderBy: { lastSeenAt: 'desc' } });
        const one = candidates.find(free);
        if (!one) continue;
        chosen = [one];
      }
      await start(task, test, chosen);
      for (const machine of chosen) busy.add(machine.id);
    }
  }

  async function start(task: Task, test: TestDefinition, machines: Machine[]) {
    const em = ctx.db.fork();
    const config = task.configId ? await em.findOne(LoadConfigEntity, { id: task.configId }) : null;
    const now = new Date();
    // Claim the task first: if another pass (or replica) got there, this update changes nothing.
    // machine_ids from now on names the machines the run is on, also when the caller let us choose.
    const claimed = await em.nativeUpdate(
      Task,
      { id: task.id, status: 'pending' },
      { status: 'running', startedAt: now, requestedMachineIds: machines.map((m) => m.id) },
    );
    if (claimed === 0) return;
    const assignments = machines.map((machine, index) =>
      em.create(TaskAssignment, {
        id: crypto.randomUUID(),
        taskId: task.id,
        workspaceId: task.workspaceId,
        machineId: machine.id,
        machineIndex: index,
        status: 'pending',
        exitCode: null,
        reason: null,
        summary: null,
        lastLogSeq: 0,
        createdAt: now,
        startedAt: null,
        finishedAt: null,
      }),
    );
    await em.flush();
    await em.nativeUpdate(Machine, { id: { $in: machines.map((m) => m.id) } }, { status: 'busy', updatedAt: now });
    for (const assignment of assignments) {
      const message: Assignment = {
        assignmentId: assignment.id,
        taskId: task.id,
        testId: test.id,
        tool: test.tool,
        script: test.script,
        config: config ? loadConfigOf(config) : null,
        machineIndex: assignment.machineIndex,
        machineCount: machines.length,
      };
      ctx.agents.get(assignment.machineId)?.send({ type: 'assign', assignment: message });
    }
    await ctx.hooks.callHook('run:started', {
      workspaceId: task.workspaceId,
      taskId: task.id,
      testId: test.id,
      machineIds: machines.map((m) => m.id),
    });
  }

  return {
    kick() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await pass();
          } while (again);
        } catch (error) {
          ctx.logger.error('dispatch pass failed', { error: String(error) });
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
