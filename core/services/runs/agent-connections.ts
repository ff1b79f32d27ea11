/** The agent sockets this replica holds, by machine id: the one place they are registered, replaced, looked up and closed. */
import type { ServerMessage } from '../../agent/protocol.ts';

/** An agent socket held by this replica. */
export interface AgentConnection {
  machineId: string;
  workspaceId: string;
  /** Unique per socket: presence rows name it, so a stale socket never clears a newer one's presence. */
  connectionId: string;
  tools: readonly string[];
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface AgentConnections {
  /** The socket held for the machine, if this replica holds one. */
  lookup(machineId: string): AgentConnection | undefined;
  /** Registers the socket for its machine; returns the one it replaced here, if any (the caller decides its fate). */
  register(connection: AgentConnection): AgentConnection | undefined;
  /**
   * Removes the socket if it is still the one registered for its machine (a newer one may have replaced it meanwhile);
   * `restore`: the socket to register again in its place (the one it replaced, found to be the holder after all).
   */
  unregister(connection: AgentConnection, restore?: AgentConnection): boolean;
  list(): AgentConnection[];
  /** The ids of the sockets held, for the presence renewal. */
  connectionIds(): string[];
  size(): number;
  /** Closes every socket held (the service stops); their sessions unregister them as they end. */
  closeAll(code: number, reason: string): void;
}

export function createAgentConnections(): AgentConnections {
  const byMachine = new Map<string, AgentConnection>();
  return {
    lookup: (machineId) => byMachine.get(machineId),
    register(connection) {
      const replaced = byMachine.get(connection.machineId);
      byMachine.set(connection.machineId, connection);
      return replaced;
    },
    unregister(connection, restore) {
      if (byMachine.get(connection.machineId) !== connection) return false;
      if (restore) byMachine.set(connection.machineId, restore);
      else byMachine.delete(connection.machineId);
      return true;
    },
    list: () => [...byMachine.values()],
    connectionIds: () => [...byMachine.values()].map((c) => c.connectionId),
    size: () => byMachine.size,
    closeAll(code, reason) {
      for (const connection of [...byMachine.values()]) connection.close(code, reason);
    },
  };
}
