/**
 * Server side of the agent protocol on the replica that holds the socket: registers the machine and its presence,
 * reconciles runs after a reconnect, stores logs and metrics, and hands every run transition to the lifecycle.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AgentMessage, agentProtocolVersion, machineTakenCloseCode } from '../../agent/protocol.ts';
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';
import { snapshotProblem } from '../../domain/metrics/check-snapshot.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import { normalizeArch, normalizeHostname, normalizeIpAddress, normalizeOs, normalizeRegion, roundCapacity } from '../../domain/machine-rules.ts';
import type { Caller } from '../caller.ts';
import { storeIntervalEndpoints } from '../metrics/run-endpoints.ts';
import { placeholders, sqlOf, transaction } from '../sql.ts';
import type { AgentCommands } from './agent-commands.ts';
import { machineForHello } from './agent-machines.ts';
import type { AgentPresence } from './agent-presence.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { LiveThresholds } from './live-thresholds.ts';
import type { AgentConnection, RunContext } from './run-context.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSignals } from './run-signals.ts';
import { activeAssignmentStatuses } from '../../domain/run-state.ts';

export interface AgentSession {
  /** A message as text, or as Elysia already parsed it. */
  onMessage(raw: unknown): Promise<void>;
  onClose(): Promise<void>;
}

// Compiled once: every message of every agent is checked, log batches included.
const agentMessage = TypeCompiler.Compile(AgentMessage);
type LogMessage = Extract<AgentMessage, { type: 'log' }>;
/** Lines stored in one transaction at most when queued batches are coalesced. */
const maxCoalescedLines = 10_000;

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Parts {
  lifecycle: RunLifecycle;
  commands: AgentCommands;
  presence: AgentPresence;
  signals: RunSignals;
  dispatcher: Dispatcher;
  /** Checks the run's abort thresholds after each stored interval. */
  liveThresholds: Pick<LiveThresholds, 'intervalStored'>;
}

export function createAgentSessions(ctx: RunContext, parts: Parts) {
  const { lifecycle, commands, presence, signals, dispatcher, liveThresholds } = parts;
  const sql = sqlOf(ctx.db);

  return {
    open(caller: Caller, transport: Pick<AgentConnection, 'send' | 'close'>): AgentSession {
      let connection: AgentConnection | null = null;
      /** Assignment id -> task id, for the runs of this socket (log batches arrive often). */
      const taskOf = new Map<string, { taskId: string; testId: string }>();

      async function runOf(assignmentId: string) {
        const known = taskOf.get(assignmentId);
        if (known) return known;
        const rows = await sql.all<{ task_id: string; test_id: string }>(
          'select a.task_id, t.test_id from task_assignments a join tasks t on t.id = a.task_id where a.id = ? and a.machine_id = ?',
          [assignmentId, connection!.machineId],
        );
        if (!rows[0]) return null;
        const entry = { taskId: rows[0].task_id, testId: rows[0].test_id };
        taskOf.set(assignmentId, entry);
        return entry;
      }

      async function hello(message: Extract<AgentMessage, { type: 'hello' }>) {
        if (message.protocol !== agentProtocolVersion) {
          transport.send({ type: 'error', message: `unsupported agent protocol ${message.protocol}; the server speaks ${agentProtocolVersion}` });
          transport.close(4400, 'protocol mismatch');
          return;
        }
        if (connection) {
          transport.send({ type: 'error', message: 'hello was already received on this connection' });
          return;
        }
        if (message.name !== undefined && message.name.trim() === '') {
          transport.send({ type: 'error', message: 'hello: name must not be empty (leave it out to use the hostname)' });
          transport.close(4400, 'invalid hello');
          return;
        }
        // An agent that names no region (started without --region, or older) leaves the machine's as it is.
        let region: { region: string | null } | null = null;
        if (message.region !== undefined) {
          try {
            region = { region: normalizeRegion(message.region) };
          } catch (error) {
            transport.send({ type: 'error', message: `hello: ${describeError(error)}` });
            transport.close(4400, 'invalid hello');
            return;
          }
        }
        const workspaceId = caller.workspace.workspaceId;
        const hostname = normalizeHostname(message.hostname);
        const now = new Date();
        const details = {
          ipAddress: normalizeIpAddress(message.ip_address),
          os: normalizeOs(message.os),
          arch: normalizeArch(message.arch),
          cpuCores: message.cpu_cores,
          memoryGb: message.memory_gb,
          agentVersion: message.agent_version,
          ...region,
          tools: message.tools,
          toolVersions: reportedVersions(message.tools, message.tool_versions),
          toolProblems: reportedProblems(message.tools, message.tool_problems),
          lastSeenAt: now,
          updatedAt: now,
        };
        // The machine (by the agent's key, else by hostname) with this socket's presence, or why none may be had.
        const connectionId = crypto.randomUUID();
        const outcome = await machineForHello(ctx.db, presence, caller, { hostname, name: message.name, machineKey: message.machine_key }, details, connectionId);
        if (!outcome.ok) {
          transport.send({ type: 'error', message: outcome.message });
          transport.close(outcome.code, outcome.reason);
          return;
        }
        const { machine, previous } = outcome;
        const machineId = machine.id;
        const current: AgentConnection = { ...transport, machineId, workspaceId, connectionId, tools: message.tools };
        const local = ctx.connections.get(machineId);
        ctx.connections.set(machineId, current);
        connection = current;
        // The database says who holds the machine. Hellos of one machine at once (a cloned agent) finish in any order:
        // a later claim may have won while this one set up, and its close for us may have come before we were
        // registered. So, registered, we ask: not the holder any more, we leave; the holder closes what it replaced.
        const [held] = await sql.all<{ connection_id: string | null }>('select connection_id from machines where id = ?', [machineId]);
        const holder = held?.connection_id ?? null;
        // What this claim replaced goes either way (unless it is the holder after all): nobody else would close it. The
        // socket registered here and the one the database named before us may be two different ones.
        if (local && local !== current && local.connectionId !== holder) local.close(machineTakenCloseCode, 'replaced by a newer connection of the same machine');
        if (previous && previous.replicaId !== ctx.replicaId && previous.connectionId !== holder) {
          await commands.closeRemote(previous.replicaId, machineId, previous.connectionId);
        }
        if (holder !== connectionId) {
          if (ctx.connections.get(machineId) === current) {
            if (local && local.connectionId === holder) ctx.connections.set(machineId, local);
            else ctx.connections.delete(machineId);
          }
          connection = null;
          transport.close(machineTakenCloseCode, 'replaced by a newer connection of the same machine');
          return;
        }

        // Reconcile runs: the agent's view after a reconnect against ours.
        const reported = new Map(message.running.map((r) => [r.assignmentId, r.logSeq]));
        const ours = await sql.all<{ id: string; status: string; last_log_seq: number }>(
          `select id, status, last_log_seq from task_assignments where machine_id = ? and status in (${placeholders(activeAssignmentStatuses)})`,
          [machineId, ...activeAssignmentStatuses],
        );
        const resumed: { assignmentId: string; logSeq: number }[] = [];
        const followUps: (() => void)[] = [];
        for (const assignment of ours) {
          if (reported.has(assignment.id)) {
            resumed.push({ assignmentId: assignment.id, logSeq: assignment.last_log_seq });
            if (assignment.status === 'cancelling') followUps.push(() => commands.send(machineId, { type: 'cancel', assignmentId: assignment.id }));
          } else if (assignment.status === 'pending') {
            // Never reached this agent (or it restarted before beginning): send it again.
            followUps.push(() => commands.send(machineId, { type: 'assign', assignmentId: assignment.id }));
          } else {
            await lifecycle.agentLost(assignment.id, assignment.status === 'running' ? 'the agent restarted and lost this run' : 'the agent restarted');
          }
        }
        const unknown = [...reported.keys()].filter((id) => !resumed.some((r) => r.assignmentId === id));
        transport.send({ type: 'welcome', machineId, heartbeatSeconds: ctx.settings.heartbeatSeconds, resumed, unknown, hostname: machine.hostname });
        for (const followUp of followUps) followUp();
        await ctx.hooks.callHook('machine:online', { workspaceId, machineId });
        void dispatcher.kick();
      }

      /** The agent found a tool after its hello (an engine installed meanwhile): the machine offers it from now. */
      async function toolsChanged(message: Extract<AgentMessage, { type: 'tools' }>) {
        const held = connection!;
        // Only while this socket holds the machine: a replaced socket's late report must not undo the newer one's.
        const rows = await sql.all(
          'update machines set tools = ?::jsonb, tool_versions = ?::jsonb, tool_problems = ?::jsonb, updated_at = now() where id = ? and connection_id = ? returning id',
          [
            JSON.stringify(message.tools),
            JSON.stringify(reportedVersions(message.tools, message.tool_versions)),
            JSON.stringify(reportedProblems(message.tools, message.tool_problems)),
            held.machineId,
            held.connectionId,
          ],
        );
        if (rows.length === 0) return;
        held.tools = message.tools;
        void dispatcher.kick();
      }

      /** The agent's calibration: the machine's capacity, while this socket holds it (a replaced socket's late figure is dropped). */
      async function calibrated(message: Extract<AgentMessage, { type: 'calibration' }>) {
        const held = connection!;
        await sql.all('update machines set benchmark_capacity = ?, updated_at = now() where id = ? and connection_id = ?', [
          roundCapacity(message.requests_per_sec),
          held.machineId,
          held.connectionId,
        ]);
      }

      /** Stores consecutive batches of one assignment in one transaction; a group that overlaps stored ones goes one by one. */
      async function log(group: readonly LogMessage[]) {
        const first = group[0]!;
        const run = await runOf(first.assignmentId);
        if (!run) return;
        const machineId = connection!.machineId;
        const source = { assignmentId: first.assignmentId, machineId, fromBatch: first.seq, batch: group[group.length - 1]!.seq };
        const stored = await ctx.logs.append(run.taskId, source, group.flatMap((m) => m.lines));
        if (stored.lines.length === 0 && group.length > 1) {
          for (const message of group) {
            const one = await ctx.logs.append(run.taskId, { assignmentId: message.assignmentId, machineId, batch: message.seq }, message.lines);
            signals.linesStored(run.taskId, one.lines);
          }
          return;
        }
        signals.linesStored(run.taskId, stored.lines);
      }

      async function metrics(assignmentId: string, snapshot: MetricSnapshot) {
        const problem = snapshotProblem(snapshot);
        if (problem) {
          transport.send({ type: 'error', message: `metrics refused: ${problem}` });
          return;
        }
        const run = await runOf(assignmentId);
        if (!run) return;
        const histogram = LatencyHistogram.decode(snapshot.histogram);
        const owner = { workspaceId: connection!.workspaceId, taskId: run.taskId, machineId: connection!.machineId };
        // The point and its per-endpoint figures and error groups together, or neither.
        await transaction(ctx.db, async (tx) => {
          await tx.all(
            `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
             values (?, ?, ?, ?, to_timestamp(? / 1000.0), to_timestamp(? / 1000.0), ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
            [
              run.taskId,
              connection!.workspaceId,
              connection!.machineId,
              run.testId,
              snapshot.startedAt,
              snapshot.endedAt,
              snapshot.requests,
              snapshot.errors,
              histogram.percentile(50),
              histogram.percentile(95),
              histogram.percentile(99),
              JSON.stringify(snapshot.histogram),
              JSON.stringify({ run: run.taskId, machine: connection!.machineId, test: run.testId }),
            ],
          );
          await storeIntervalEndpoints(tx, owner, snapshot);
        });
        liveThresholds.intervalStored(run.taskId);
      }

      async function handle(message: AgentMessage) {
        if (message.type === 'hello') return hello(message);
        if (!connection) {
          transport.send({ type: 'error', message: 'send hello first' });
          return;
        }
        const machineId = connection.machineId;
        switch (message.type) {
          case 'heartbeat':
            return;
          case 'tools':
            return toolsChanged(message);
          case 'started':
            return lifecycle.started(message.assignmentId, machineId);
          case 'log':
            return log([message]);
          case 'metrics':
            return metrics(message.assignmentId, message.snapshot);
          case 'finished':
            taskOf.delete(message.assignmentId);
            await lifecycle.finishAssignment(message.assignmentId, machineId, {
              status: message.status,
              reason: message.reason ?? null,
              exitCode: message.exitCode,
              summary: message.summary,
            });
            return;
          case 'start_failed':
            taskOf.delete(message.assignmentId);
            return lifecycle.failToStart(message.assignmentId, machineId, message.message);
          case 'calibration':
            return calibrated(message);
        }
      }

      /** Parses and checks one raw message; null (after telling the agent why) when it is not a valid message. */
      function parse(raw: unknown): AgentMessage | null {
        let message: unknown = raw;
        if (typeof raw === 'string') {
          try {
            message = JSON.parse(raw);
          } catch {
            transport.send({ type: 'error', message: 'messages must be JSON' });
            return null;
          }
        }
        if (!agentMessage.Check(message)) {
          const first = agentMessage.Errors(message).First();
          transport.send({ type: 'error', message: `invalid message${first ? ` at ${first.path}: ${first.message}` : ''}` });
          return null;
        }
        return message;
      }

      async function safely(type: string, work: () => Promise<void>) {
        try {
          await work();
        } catch (error) {
          ctx.logger.error('agent message failed', { type, error: describeError(error) });
          transport.send({ type: 'error', message: describeError(error) });
        }
      }

      // Messages of one agent are handled strictly in order (log batches, then finished). Log batches of one
      // assignment that queued up behind each other (a flood) are stored together: one transaction, not one each.
      const inbox: AgentMessage[] = [];
      let draining: Promise<void> | null = null;
      function startDraining() {
        if (draining) return;
        draining = drain().finally(() => {
          draining = null;
          // A message that arrived between the loop's last check and here starts the next round.
          if (inbox.length > 0) startDraining();
        });
      }
      async function drain() {
        while (inbox.length > 0) {
          const message = inbox.shift()!;
          if (message.type !== 'log' || !connection) {
            await safely(message.type, () => handle(message));
            continue;
          }
          const group: LogMessage[] = [message];
          let lines = message.lines.length;
          while (inbox.length > 0 && lines < maxCoalescedLines) {
            const next = inbox[0]!;
            if (next.type !== 'log' || next.assignmentId !== message.assignmentId || next.seq !== group[group.length - 1]!.seq + 1) break;
            inbox.shift();
            group.push(next);
            lines += next.lines.length;
          }
          await safely('log', () => log(group));
        }
      }
      return {
        onMessage(raw) {
          // Checked on arrival, so a refused message is answered at once and never reaches the queue.
          const message = parse(raw);
          if (message) {
            inbox.push(message);
            startDraining();
          }
          return draining ?? Promise.resolve();
        },
        async onClose() {
          await draining;
          const closing = connection;
          if (!closing) return;
          if (ctx.connections.get(closing.machineId) === closing) ctx.connections.delete(closing.machineId);
          // Only this socket's presence ends: a newer socket of the machine (here or on another replica) keeps its own.
          if (await presence.release(closing.machineId, closing.connectionId)) {
            await ctx.hooks.callHook('machine:offline', { workspaceId: closing.workspaceId, machineId: closing.machineId });
          }
        },
      };
    },

    /** Renews the presence of every socket this replica holds (the sweep calls it every heartbeat). */
    renewPresence: () => presence.renew([...ctx.connections.values()].map((c) => c.connectionId)),
  };
}

export type AgentSessions = ReturnType<typeof createAgentSessions>;

/** Why the agent offers no more, for the tools it does not offer only (a task waiting for one quotes it). */
function reportedProblems(tools: readonly string[], problems: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [tool, reason] of Object.entries(problems ?? {})) if (!tools.includes(tool) && typeof reason === 'string') kept[tool] = reason;
  return kept;
}

/** The versions the agent reported, for the tools it offers only. */
function reportedVersions(tools: readonly string[], versions: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const tool of tools) if (versions && typeof versions[tool] === 'string') kept[tool] = versions[tool];
  return kept;
}
