/**
 * Server side of the agent protocol on the replica that holds the socket: checks each message, keeps one socket's
 * messages in order, and hands each kind to its module (hello, machine reports, log batches, metrics, run progress).
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AgentMessage } from '../../agent/protocol.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { Caller } from '../caller.ts';
import type { AgentConnections } from './agent-connections.ts';
import type { AgentHello } from './agent-hello.ts';
import { type AgentLogBatches, takeLogGroup } from './agent-log-batches.ts';
import type { AgentMachineReports } from './agent-machine-reports.ts';
import type { AgentMetrics } from './agent-metrics.ts';
import type { AgentPresence } from './agent-presence.ts';
import type { AgentRunProgress } from './agent-run-progress.ts';
import { type AgentSocket, type AgentTransport, createAgentSocket } from './agent-socket.ts';

export interface AgentSession {
  /** A message as text, or as Elysia already parsed it. */
  onMessage(raw: unknown): Promise<void>;
  onClose(): Promise<void>;
}

// Compiled once: every message of every agent is checked, log batches included.
const agentMessage = TypeCompiler.Compile(AgentMessage);

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface AgentSessionsDeps {
  db: Database;
  logger: Logger;
  /** `machine:offline` is called when the socket that held a machine closes. */
  hooks: Pick<HookBus<KernelHooks>, 'callHook'>;
  connections: Pick<AgentConnections, 'unregister'>;
  presence: Pick<AgentPresence, 'release'>;
  /** The handlers, one per kind of message. */
  hello: AgentHello;
  machineReports: AgentMachineReports;
  logBatches: AgentLogBatches;
  metrics: AgentMetrics;
  progress: AgentRunProgress;
}

export function createAgentSessions(deps: AgentSessionsDeps) {
  return {
    open(caller: Caller, transport: AgentTransport): AgentSession {
      const socket: AgentSocket = createAgentSocket(deps.db, caller, transport);

      async function handle(message: AgentMessage) {
        if (message.type === 'hello') return deps.hello(socket, message);
        const held = socket.connection;
        if (!held) {
          transport.send({ type: 'error', message: 'send hello first' });
          return;
        }
        switch (message.type) {
          case 'heartbeat':
            return;
          case 'tools':
            return deps.machineReports.toolsChanged(held, message);
          case 'calibration':
            return deps.machineReports.calibrated(held, message);
          case 'log':
            return deps.logBatches.store(socket, [message]);
          case 'metrics':
            return deps.metrics.store(socket, message);
          case 'started':
          case 'finished':
          case 'start_failed':
            return deps.progress.report(socket, message);
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
          deps.logger.error('agent message failed', { type, error: describeError(error) });
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
          if (message.type !== 'log' || !socket.connection) {
            await safely(message.type, () => handle(message));
            continue;
          }
          const group = takeLogGroup(message, inbox);
          await safely('log', () => deps.logBatches.store(socket, group));
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
          const closing = socket.connection;
          if (!closing) return;
          deps.connections.unregister(closing);
          // Only this socket's presence ends: a newer socket of the machine (here or on another replica) keeps its own.
          if (await deps.presence.release(closing.machineId, closing.connectionId)) {
            await deps.hooks.callHook('machine:offline', { workspaceId: closing.workspaceId, machineId: closing.machineId });
          }
        },
      };
    },
  };
}

export type AgentSessions = ReturnType<typeof createAgentSessions>;
