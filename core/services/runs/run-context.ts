/** What the run services of one replica share: database, settings, the sockets it holds, its stream hub, the pubsub to the others. */
import type { LoadTool } from '../../capabilities/load-tool.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { ServerMessage } from '../../agent/protocol.ts';
import type { Database } from '../../ports/database.ts';
import type { PubSub } from '../../ports/pubsub.ts';
import type { LogStore } from './log-store.ts';
import type { StreamHub } from './stream-hub.ts';

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

export interface RunSettings {
  publicUrl: string;
  /** How long an assignment waits for its lost agent to come back before it fails. */
  agentGraceMillis: number;
  heartbeatSeconds: number;
  /** How long a presence holds without renewal (a replica that died stops renewing). */
  leaseSeconds: number;
  /** How often the sweep (lost agents, stuck tasks, resends, stream checks, dispatch) runs. */
  sweepMillis: number;
  /** Default wait of a pending task before it fails; null: no deadline. */
  pendingTimeoutSeconds: number | null;
}

export interface RunContext {
  db: Database;
  logs: LogStore;
  streams: StreamHub;
  hooks: HookBus<KernelHooks>;
  logger: Logger;
  settings: RunSettings;
  tools: ReadonlyMap<string, LoadTool>;
  pubsub: PubSub;
  /** This process's id among the replicas (new at every boot). */
  replicaId: string;
  /** Agent sockets held by this replica, by machine id. */
  connections: Map<string, AgentConnection>;
  /** The workspace's environment variables in clear text, for the assignments sent to its agents. */
  workspaceEnv(workspaceId: string): Promise<Record<string, string>>;
}
