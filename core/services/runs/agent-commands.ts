/**
 * Gets `assign`, `cancel` and `calibrate` to an agent through whichever replica holds its socket: directly when it is
 * this one, else as a wake-up to the holder, which reads the rest from the database. What is not acknowledged is sent
 * again by the holder's sweep, so a lost message delays a run but never strands it (a lost `calibrate` is not resent:
 * the caller may ask again).
 */
import type { Assignment } from '../../capabilities/load-tool.ts';
import { LoadConfigEntity } from '../../domain/entities/load-config.ts';
import { machineDeletedCloseCode, machineTakenCloseCode } from '../../agent/protocol.ts';
import { loadConfigOf } from '../configs.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { PubSub } from '../../ports/pubsub.ts';
import { sqlOf } from '../sql.ts';
import type { AgentConnection, AgentConnections } from './agent-connections.ts';
import type { AgentCommand } from './run-lifecycle.ts';

const topic = 'agent_commands';

/** To replica `r` ('*': every replica) about machine `m`: a command, a replaced socket to close, or a deleted machine. */
type Remote = { r: string; m: string; c?: AgentCommand; close?: string; deleted?: true; calibrate?: true };

export interface AgentCommandsDeps {
  db: Database;
  logger: Logger;
  /** Where `machine:deleted` is heard. */
  hooks: Pick<HookBus<KernelHooks>, 'hook'>;
  pubsub: PubSub;
  /** This process's id among the replicas: the commands for its sockets name it. */
  replicaId: string;
  connections: Pick<AgentConnections, 'lookup' | 'size'>;
  /** The workspace's environment variables in clear text, for the assignments sent to its agents. */
  workspaceEnv(workspaceId: string): Promise<Record<string, string>>;
}

export function createAgentCommands(deps: AgentCommandsDeps) {
  const sql = sqlOf(deps.db);

  async function assignment(assignmentId: string, machineId: string): Promise<Assignment | null> {
    const rows = await sql.all<{
      id: string;
      task_id: string;
      workspace_id: string;
      test_id: string;
      tool: string;
      script: string;
      config_id: string | null;
      machine_index: number;
      machine_count: number;
    }>(
      `select a.id, a.task_id, t.workspace_id, t.test_id, te.tool, te.script, t.config_id, a.machine_index,
         (select count(*) from task_assignments b where b.task_id = a.task_id)::int as machine_count
       from task_assignments a join tasks t on t.id = a.task_id join tests te on te.id = t.test_id
       where a.id = ? and a.machine_id = ? and a.status = 'pending'`,
      [assignmentId, machineId],
    );
    const row = rows[0];
    if (!row) return null;
    const config = row.config_id ? await deps.db.fork().findOne(LoadConfigEntity, { id: row.config_id }) : null;
    return {
      assignmentId: row.id,
      taskId: row.task_id,
      testId: row.test_id,
      tool: row.tool,
      script: row.script,
      config: config ? loadConfigOf(config) : null,
      machineIndex: row.machine_index,
      machineCount: row.machine_count,
      // Read at each send (a resend after a reconnect carries the values of that moment); never logged.
      env: await deps.workspaceEnv(row.workspace_id),
    };
  }

  /** Sends one command on a socket this replica holds. */
  async function deliver(connection: AgentConnection, command: AgentCommand): Promise<void> {
    if (command.type === 'cancel') {
      connection.send({ type: 'cancel', assignmentId: command.assignmentId });
    } else {
      const message = await assignment(command.assignmentId, connection.machineId);
      if (!message) return;
      connection.send({ type: 'assign', assignment: message });
    }
    await sql.all('update task_assignments set sent_at = now() where id = ?', [command.assignmentId]);
  }

  const failed = (error: unknown) => deps.logger.error('agent command failed', { error: String(error) });

  function closeDeleted(connection: AgentConnection) {
    connection.send({ type: 'error', message: 'this machine was deleted in the service; the agent stops (start it again to register the machine anew)' });
    connection.close(machineDeletedCloseCode, 'machine deleted');
  }

  // A deleted machine's agent is cut off wherever its socket is: the row is gone, so every replica is told.
  deps.hooks.hook('machine:deleted', ({ machineId }) => {
    const local = deps.connections.lookup(machineId);
    if (local) closeDeleted(local);
    if (deps.pubsub.shared) void deps.pubsub.publish(topic, JSON.stringify({ r: '*', m: machineId, deleted: true } satisfies Remote)).catch(failed);
  });

  deps.pubsub.subscribe(topic, (payload) => {
    let message: Remote;
    try {
      message = JSON.parse(payload) as Remote;
    } catch {
      return;
    }
    if (message.r !== deps.replicaId && message.r !== '*') return;
    const connection = deps.connections.lookup(message.m);
    if (!connection) return;
    if (message.deleted) return closeDeleted(connection);
    if (message.close && connection.connectionId === message.close) connection.close(machineTakenCloseCode, 'replaced by a newer connection of the same machine');
    if (message.c) void deliver(connection, message.c).catch(failed);
    if (message.calibrate) connection.send({ type: 'calibrate' });
  });

  /** To the holder of `machineId`'s socket; false when no replica holds one (or nobody else can be told). */
  async function toHolder(machineId: string, remote: Omit<Remote, 'r' | 'm'>): Promise<boolean> {
    if (!deps.pubsub.shared) return false;
    const rows = await sql.all<{ replica_id: string | null }>('select replica_id from machines where id = ? and connection_id is not null', [machineId]);
    const holder = rows[0]?.replica_id;
    if (!holder || holder === deps.replicaId) return false;
    await deps.pubsub.publish(topic, JSON.stringify({ r: holder, m: machineId, ...remote } satisfies Remote));
    return true;
  }

  return {
    deliver,

    /** To the agent of `machineId`, wherever its socket is; nobody holds it: it gets the command when it says hello. */
    send(machineId: string, command: AgentCommand): void {
      const local = deps.connections.lookup(machineId);
      if (local) {
        void deliver(local, command).catch(failed);
        return;
      }
      void toHolder(machineId, { c: command }).catch(failed);
    },

    /**
     * Asks the agent of `machineId` to calibrate, wherever its socket is; false when no replica holds one. Not kept for a
     * later hello: an agent calibrates at registration anyway.
     */
    async calibrate(machineId: string): Promise<boolean> {
      const local = deps.connections.lookup(machineId);
      if (local) {
        local.send({ type: 'calibrate' });
        return true;
      }
      return toHolder(machineId, { calibrate: true });
    },

    /** Tells another replica to close a socket a newer connection of the same machine replaced. */
    async closeRemote(replicaId: string, machineId: string, connectionId: string): Promise<void> {
      await deps.pubsub.publish(topic, JSON.stringify({ r: replicaId, m: machineId, close: connectionId } satisfies Remote));
    },

    /** The holder's safety net: assigns and cancels its agents have not acknowledged are sent again. */
    async resendUnacknowledged(olderThanSeconds: number): Promise<void> {
      if (deps.connections.size() === 0) return;
      // Found through the presence this replica holds, not by passing every held machine id as a parameter.
      const rows = await sql.all<{ id: string; machine_id: string; status: string }>(
        `select a.id, a.machine_id, a.status from task_assignments a join machines m on m.id = a.machine_id
         where m.replica_id = ? and a.status in ('pending', 'cancelling')
           and (a.sent_at is null or a.sent_at < now() - make_interval(secs => ?))`,
        [deps.replicaId, olderThanSeconds],
      );
      for (const row of rows) {
        const connection = deps.connections.lookup(row.machine_id);
        if (connection) await deliver(connection, { type: row.status === 'pending' ? 'assign' : 'cancel', assignmentId: row.id });
      }
    },
  };
}

export type AgentCommands = ReturnType<typeof createAgentCommands>;
