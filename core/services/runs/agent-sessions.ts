/** Server side of the agent protocol: registers the machine, resumes runs after reconnects, stores logs and metrics, and fails runs of agents that stay away. */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { limitsOf } from '../../../config/plans.ts';
import { AgentMessage, agentProtocolVersion } from '../../agent/protocol.ts';
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { Machine } from '../../domain/entities/machine.ts';
import { Task } from '../../domain/entities/task.ts';
import { TaskAssignment } from '../../domain/entities/task-assignment.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { normalizeArch, normalizeHostname, normalizeIpAddress, normalizeOs } from '../../domain/machine-rules.ts';
import { isTerminal } from '../../domain/run-state.ts';
import type { Caller } from '../caller.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { AgentConnection, RunContext } from './run-context.ts';
import { failToStart, finishAssignment, freeMachine } from './run-lifecycle.ts';

export interface AgentSession {
  /** A message as text, or as Elysia already parsed it. */
  onMessage(raw: unknown): Promise<void>;
  onClose(): Promise<void>;
}

interface ActiveAssignment {
  taskId: string;
  testId: string;
  lastLogSeq: number;
}

// Compiled once: every message of every agent is checked, log batches included.
const agentMessage = TypeCompiler.Compile(AgentMessage);

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createAgentSessions(ctx: RunContext, dispatcher: Dispatcher) {
  const graceTimers = new Map<string, ReturnType<typeof setTimeout>>();

  function armGrace(machineId: string) {
    clearTimeout(graceTimers.get(machineId));
    const timer = setTimeout(async () => {
      graceTimers.delete(machineId);
      if (ctx.agents.has(machineId)) return;
      const em = ctx.db.fork();
      const lost = await em.find(TaskAssignment, { machineId, status: { $in: ['pending', 'running'] } });
      for (const assignment of lost) {
        await finishAssignment(ctx, assignment.id, {
          status: 'failed',
          reason: `the agent of this machine disconnected and did not come back within ${Math.round(ctx.settings.agentGraceMillis / 1000)} s`,
        });
      }
    }, ctx.settings.agentGraceMillis);
    (timer as { unref?: () => void }).unref?.();
    graceTimers.set(machineId, timer);
  }

  return {
    open(caller: Caller, transport: Omit<AgentConnection, 'machineId' | 'workspaceId' | 'tools'>): AgentSession {
      let connection: AgentConnection | null = null;
      const active = new Map<string, ActiveAssignment>();
      let lastSeenWrite = 0;

      async function activeAssignment(assignmentId: string): Promise<ActiveAssignment | null> {
        const known = active.get(assignmentId);
        if (known) return known;
        if (!connection) return null;
        const row = await ctx.db.fork().findOne(TaskAssignment, { id: assignmentId, machineId: connection.machineId });
        if (!row || isTerminal(row.status)) return null;
        const task = await ctx.db.fork().findOne(Task, { id: row.taskId });
        if (!task) return null;
        const entry = { taskId: row.taskId, testId: task.testId, lastLogSeq: row.lastLogSeq };
        active.set(assignmentId, entry);
        return entry;
      }

      async function hello(message: Extract<AgentMessage, { type: 'hello' }>) {
        if (message.protocol !== agentProtocolVersion) {
          transport.send({ type: 'error', message: `unsupported agent protocol ${message.protocol}; the server speaks ${agentProtocolVersion}` });
          transport.close(4400, 'protocol mismatch');
          return;
        }
        const workspaceId = caller.workspace.workspaceId;
        const hostname = normalizeHostname(message.hostname);
        const em = ctx.db.fork();
        let machine = await em.findOne(Machine, { workspaceId, hostname });
        const now = new Date();
        const details = {
          ipAddress: normalizeIpAddress(message.ip_address),
          os: normalizeOs(message.os),
          arch: normalizeArch(message.arch),
          cpuCores: message.cpu_cores,
          memoryGb: message.memory_gb,
          agentVersion: message.agent_version,
          tools: message.tools,
          lastSeenAt: now,
          updatedAt: now,
        };
        if (machine) {
          Object.assign(machine, details);
        } else {
          const limit = limitsOf(caller.workspace.plan).machines;
          if (limit !== null && (await em.count(Machine, { workspaceId })) >= limit) {
            transport.send({ type: 'error', message: `the ${caller.workspace.plan} plan allows ${limit} machines` });
            transport.close(4403, 'plan limit');
            return;
          }
          machine = em.create(Machine, { id: crypto.randomUUID(), workspaceId, name: message.name ?? hostname, hostname, status: 'online', createdAt: now, ...details });
        }
        await em.flush();
        const machineId = machine.id;
        ctx.agents.get(machineId)?.close(4409, 'replaced by a newer connection of the same machine');
        connection = { ...transport, machineId, workspaceId, tools: message.tools };
        ctx.agents.set(machineId, connection);
        clearTimeout(graceTimers.get(machineId));
        graceTimers.delete(machineId);

        // Reconcile runs: the agent's view after a reconnect against ours.
        const reported = new Map(message.running.map((r) => [r.assignmentId, r.logSeq]));
        const ours = await em.find(TaskAssignment, { machineId, status: { $in: ['pending', 'running'] } });
        const resumed: { assignmentId: string; logSeq: number }[] = [];
        for (const assignment of ours) {
          if (reported.has(assignment.id)) {
            resumed.push({ assignmentId: assignment.id, logSeq: assignment.lastLogSeq });
          } else if (assignment.status === 'running') {
            await finishAssignment(ctx, assignment.id, { status: 'failed', reason: 'the agent restarted and lost this run' });
          } else {
            await finishAssignment(ctx, assignment.id, { status: 'failed', reason: 'the agent restarted before the run began' });
          }
        }
        const unknown = [...reported.keys()].filter((id) => !resumed.some((r) => r.assignmentId === id));
        for (const id of unknown) transport.send({ type: 'cancel', assignmentId: id });
        await em.nativeUpdate(Machine, { id: machineId }, { status: resumed.length > 0 ? 'busy' : 'online' });
        await freeMachine(ctx, machineId);
        transport.send({ type: 'welcome', machineId, heartbeatSeconds: ctx.settings.heartbeatSeconds, resumed, unknown });
        await ctx.hooks.callHook('machine:online', { workspaceId, machineId });
        await dispatcher.kick();
      }

      async function log(message: Extract<AgentMessage, { type: 'log' }>) {
        const assignment = await activeAssignment(message.assignmentId);
        // A batch resent after a reconnect that we already stored is dropped.
        if (!assignment || message.seq <= assignment.lastLogSeq) return;
        assignment.lastLogSeq = message.seq;
        const ids = await ctx.logs.append(assignment.taskId, connection!.machineId, message.lines);
        await ctx.db.fork().nativeUpdate(TaskAssignment, { id: message.assignmentId }, { lastLogSeq: message.seq });
        const machineId = connection!.machineId;
        ctx.bus.publish(
          assignment.taskId,
          message.lines.map((line, index) => ({
            type: 'log' as const,
            source: line.source,
            text: line.text,
            machine_id: machineId,
            ...(ids[index] !== null ? { id: ids[index]! } : {}),
          })),
        );
      }

      async function metrics(assignmentId: string, snapshot: MetricSnapshot) {
        const assignment = await activeAssignment(assignmentId);
        if (!assignment) return;
        const histogram = LatencyHistogram.decode(snapshot.histogram);
        await ctx.db.orm.em.getConnection().execute(
          `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
           values (?, ?, ?, ?, to_timestamp(? / 1000.0), to_timestamp(? / 1000.0), ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
          [
            assignment.taskId,
            connection!.workspaceId,
            connection!.machineId,
            assignment.testId,
            snapshot.startedAt,
            snapshot.endedAt,
            snapshot.requests,
            snapshot.errors,
            histogram.percentile(50),
            histogram.percentile(95),
            histogram.percentile(99),
            JSON.stringify(snapshot.histogram),
            JSON.stringify({ run: assignment.taskId, machine: connection!.machineId, test: assignment.testId }),
          ],
        );
      }

      async function handle(message: AgentMessage) {
        if (message.type === 'hello') return hello(message);
        if (!connection) {
          transport.send({ type: 'error', message: 'send hello first' });
          return;
        }
        const now = Date.now();
        if (now - lastSeenWrite > 10_000) {
          lastSeenWrite = now;
          await ctx.db.fork().nativeUpdate(Machine, { id: connection.machineId }, { lastSeenAt: new Date(now) });
        }
        switch (message.type) {
          case 'heartbeat':
            return;
          case 'started':
            await ctx.db.fork().nativeUpdate(TaskAssignment, { id: message.assignmentId, machineId: connection.machineId, status: 'pending' }, { status: 'running', startedAt: new Date() });
            return;
          case 'log':
            return log(message);
          case 'metrics':
            return metrics(message.assignmentId, message.snapshot);
          case 'finished': {
            if (!(await activeAssignment(message.assignmentId))) return;
            active.delete(message.assignmentId);
            await finishAssignment(ctx, message.assignmentId, {
              status: message.status,
              reason: message.reason ?? null,
              exitCode: message.exitCode,
              summary: message.summary,
            });
            await dispatcher.kick();
            return;
          }
          case 'start_failed': {
            const assignment = await activeAssignment(message.assignmentId);
            if (!assignment) return;
            active.delete(message.assignmentId);
            const task = await ctx.db.fork().findOne(Task, { id: assignment.taskId });
            if (task) await failToStart(ctx, task, message.message);
            await dispatcher.kick();
            return;
          }
        }
      }

      // Messages of one agent are handled strictly in order (log batches, then finished).
      let queue: Promise<void> = Promise.resolve();
      return {
        onMessage(raw) {
          queue = queue.then(async () => {
            let message: unknown = raw;
            if (typeof raw === 'string') {
              try {
                message = JSON.parse(raw);
              } catch {
                transport.send({ type: 'error', message: 'messages must be JSON' });
                return;
              }
            }
            if (!agentMessage.Check(message)) {
              const first = agentMessage.Errors(message).First();
              transport.send({ type: 'error', message: `invalid message${first ? ` at ${first.path}: ${first.message}` : ''}` });
              return;
            }
            try {
              await handle(message);
            } catch (error) {
              ctx.logger.error('agent message failed', { type: message.type, error: describeError(error) });
              transport.send({ type: 'error', message: describeError(error) });
            }
          });
          return queue;
        },
        async onClose() {
          await queue;
          if (!connection || ctx.agents.get(connection.machineId) !== connection) return;
          ctx.agents.delete(connection.machineId);
          const em = ctx.db.fork();
          await em.nativeUpdate(Machine, { id: connection.machineId }, { status: 'offline', updatedAt: new Date() });
          if ((await em.count(TaskAssignment, { machineId: connection.machineId, status: { $in: ['pending', 'running'] } })) > 0) {
            armGrace(connection.machineId);
          }
          await ctx.hooks.callHook('machine:offline', { workspaceId: connection.workspaceId, machineId: connection.machineId });
        },
      };
    },

    /** At boot: runs whose agents are not connected get the grace period to come back. */
    async armAfterRestart() {
      const em = ctx.db.fork();
      const orphans = await em.find(TaskAssignment, { status: { $in: ['pending', 'running'] } }, { fields: ['machineId'] });
      for (const machineId of new Set(orphans.map((a) => a.machineId))) if (!ctx.agents.has(machineId)) armGrace(machineId);
      await em.nativeUpdate(Machine, { status: { $ne: 'offline' } }, { status: 'offline' });
    },

    stop() {
      for (const timer of graceTimers.values()) clearTimeout(timer);
      graceTimers.clear();
    },
  };
}

export type AgentSessions = ReturnType<typeof createAgentSessions>;
