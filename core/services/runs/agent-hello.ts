/**
 * An agent's hello: checks it, registers the machine (by key, else hostname) with this socket's presence, settles who
 * holds the machine when hellos of one machine race, and reconciles the runs the agent reports with ours.
 */
import { type AgentMessage, agentProtocolVersion, machineTakenCloseCode } from '../../agent/protocol.ts';
import { normalizeArch, normalizeHostname, normalizeIpAddress, normalizeOs, normalizeRegion } from '../../domain/machine-rules.ts';
import { activeAssignmentStatuses } from '../../domain/run-state.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Database } from '../../ports/database.ts';
import { placeholders, sqlOf } from '../sql.ts';
import type { AgentCommands } from './agent-commands.ts';
import type { AgentConnection, AgentConnections } from './agent-connections.ts';
import { reportedProblems, reportedVersions } from './agent-machine-reports.ts';
import { machineForHello } from './agent-machines.ts';
import type { AgentPresence } from './agent-presence.ts';
import type { AgentSocket } from './agent-socket.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSettings } from './run-settings.ts';

type Hello = Extract<AgentMessage, { type: 'hello' }>;

export interface AgentHelloDeps {
  db: Database;
  /** This process's id among the replicas. */
  replicaId: string;
  settings: Pick<RunSettings, 'heartbeatSeconds'>;
  connections: Pick<AgentConnections, 'register' | 'unregister'>;
  presence: AgentPresence;
  commands: Pick<AgentCommands, 'send' | 'closeRemote'>;
  lifecycle: Pick<RunLifecycle, 'agentLost'>;
  hooks: Pick<HookBus<KernelHooks>, 'callHook'>;
  dispatcher: Pick<Dispatcher, 'kick'>;
}

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createAgentHello(deps: AgentHelloDeps) {
  const sql = sqlOf(deps.db);

  /** The runs after a reconnect: the agent's view against ours; what it lost ends, what never reached it is sent again. */
  async function reconcile(socket: AgentSocket, machineId: string, hostname: string, message: Hello): Promise<void> {
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
        if (assignment.status === 'cancelling') followUps.push(() => deps.commands.send(machineId, { type: 'cancel', assignmentId: assignment.id }));
      } else if (assignment.status === 'pending') {
        // Never reached this agent (or it restarted before beginning): send it again.
        followUps.push(() => deps.commands.send(machineId, { type: 'assign', assignmentId: assignment.id }));
      } else {
        await deps.lifecycle.agentLost(assignment.id, assignment.status === 'running' ? 'the agent restarted and lost this run' : 'the agent restarted');
      }
    }
    const unknown = [...reported.keys()].filter((id) => !resumed.some((r) => r.assignmentId === id));
    socket.transport.send({ type: 'welcome', machineId, heartbeatSeconds: deps.settings.heartbeatSeconds, resumed, unknown, hostname });
    for (const followUp of followUps) followUp();
  }

  /** Handles a hello; `socket.connection` is set while this socket is registered as its machine's. */
  return async function hello(socket: AgentSocket, message: Hello): Promise<void> {
    const { caller, transport } = socket;
    if (message.protocol !== agentProtocolVersion) {
      transport.send({ type: 'error', message: `unsupported agent protocol ${message.protocol}; the server speaks ${agentProtocolVersion}` });
      transport.close(4400, 'protocol mismatch');
      return;
    }
    if (socket.connection) {
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
    const outcome = await machineForHello(deps.db, deps.presence, caller, { hostname, name: message.name, machineKey: message.machine_key }, details, connectionId);
    if (!outcome.ok) {
      transport.send({ type: 'error', message: outcome.message });
      transport.close(outcome.code, outcome.reason);
      return;
    }
    const { machine, previous } = outcome;
    const machineId = machine.id;
    const current: AgentConnection = { ...transport, machineId, workspaceId, connectionId, tools: message.tools };
    const local = deps.connections.register(current);
    socket.connection = current;
    // The database says who holds the machine. Hellos of one machine at once (a cloned agent) finish in any order:
    // a later claim may have won while this one set up, and its close for us may have come before we were
    // registered. So, registered, we ask: not the holder any more, we leave; the holder closes what it replaced.
    const [held] = await sql.all<{ connection_id: string | null }>('select connection_id from machines where id = ?', [machineId]);
    const holder = held?.connection_id ?? null;
    // What this claim replaced goes either way (unless it is the holder after all): nobody else would close it. The
    // socket registered here and the one the database named before us may be two different ones.
    if (local && local !== current && local.connectionId !== holder) local.close(machineTakenCloseCode, 'replaced by a newer connection of the same machine');
    if (previous && previous.replicaId !== deps.replicaId && previous.connectionId !== holder) {
      await deps.commands.closeRemote(previous.replicaId, machineId, previous.connectionId);
    }
    if (holder !== connectionId) {
      deps.connections.unregister(current, local && local.connectionId === holder ? local : undefined);
      socket.connection = null;
      transport.close(machineTakenCloseCode, 'replaced by a newer connection of the same machine');
      return;
    }

    await reconcile(socket, machineId, machine.hostname, message);
    await deps.hooks.callHook('machine:online', { workspaceId, machineId });
    void deps.dispatcher.kick();
  };
}

export type AgentHello = ReturnType<typeof createAgentHello>;
