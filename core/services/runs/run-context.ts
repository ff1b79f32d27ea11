/** What the run services share: database, event bus, log store, connected agents, hooks and settings. */
import type { LoadTool } from '../../capabilities/load-tool.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { ServerMessage } from '../../agent/protocol.ts';
import type { Database } from '../../ports/database.ts';
import type { LogStore } from './log-store.ts';
import type { RunEventBus } from './run-event-bus.ts';

export interface AgentConnection {
  machineId: string;
  workspaceId: string;
  tools: readonly string[];
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface RunSettings {
  publicUrl: string;
  /** How long a running assignment waits for its lost agent to come back before it fails. */
  agentGraceMillis: number;
  heartbeatSeconds: number;
}

export interface RunContext {
  db: Database;
  bus: RunEventBus;
  logs: LogStore;
  hooks: HookBus<KernelHooks>;
  logger: Logger;
  settings: RunSettings;
  tools: ReadonlyMap<string, LoadTool>;
  /** Agents connected to this process, by machine id. */
  agents: Map<string, AgentConnection>;
}
