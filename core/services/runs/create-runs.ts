/** Wires the run machinery of one replica: lifecycle, dispatcher (and why tasks wait), agent sessions and commands, streams, signals, sweeper. */
import type { LoadTool } from '../../capabilities/load-tool.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { Masker } from '../../domain/secret-masking.ts';
import type { PubSub } from '../../ports/pubsub.ts';
import { sqlOf } from '../sql.ts';
import { createAgentCommands } from './agent-commands.ts';
import { type AgentConnections, createAgentConnections } from './agent-connections.ts';
import { createAgentHello } from './agent-hello.ts';
import { createAgentLogBatches } from './agent-log-batches.ts';
import { createAgentMachineReports } from './agent-machine-reports.ts';
import { createAgentMetrics } from './agent-metrics.ts';
import { createAgentPresence } from './agent-presence.ts';
import { createAgentRunProgress } from './agent-run-progress.ts';
import { createAgentSessions } from './agent-sessions.ts';
import { createDispatcher } from './dispatcher.ts';
import { createLiveThresholds } from './live-thresholds.ts';
import { createLogStore } from './log-store.ts';
import { createPendingReasons } from './pending-reasons.ts';
import { createRunLifecycle } from './run-lifecycle.ts';
import type { RunSettings } from './run-settings.ts';
import { logRunLines } from './run-log-lines.ts';
import { createRunSignals } from './run-signals.ts';
import { createRunSweeper } from './run-sweeper.ts';
import { createStreamHub } from './stream-hub.ts';
import { createTaskService } from './tasks.ts';

export interface RunsOptions {
  db: Database;
  hooks: HookBus<KernelHooks>;
  logger: Logger;
  pubsub: PubSub;
  tools: ReadonlyMap<string, LoadTool>;
  settings: RunSettings;
  maxStoredLogLines: number;
  maxStoredLogBytes: number;
  /** false (WORKERS=false): this replica does not run the jobs that act for every replica. */
  workers: boolean;
  /** The workspace's environment variables: sent with assignments, masked in logs. None when absent. */
  envVars?: {
    valuesFor(workspaceId: string): Promise<Record<string, string>>;
    maskerFor(workspaceId: string): Promise<Masker | null>;
  };
}

export async function createRuns(options: RunsOptions) {
  const envVars = options.envVars ?? { valuesFor: async () => ({}), maskerFor: async () => null };
  // A task never changes workspace: remember which one it is in, for the masker of its log lines.
  const workspaceOfTask = new Map<string, string>();
  const maskerForTask = async (taskId: string) => {
    let workspaceId = workspaceOfTask.get(taskId);
    if (!workspaceId) {
      const [row] = await sqlOf(options.db).all<{ workspace_id: string }>('select workspace_id from tasks where id = ?', [taskId]);
      if (!row) return null;
      workspaceId = row.workspace_id;
      if (workspaceOfTask.size > 10_000) workspaceOfTask.clear();
      workspaceOfTask.set(taskId, workspaceId);
    }
    return envVars.maskerFor(workspaceId);
  };
  const logs = createLogStore(options.db, { maxLines: options.maxStoredLogLines, maxBytes: options.maxStoredLogBytes }, maskerForTask);
  const { db, hooks, logger, pubsub, settings } = options;
  // This process's id among the replicas (new at every boot): presence rows and agent commands name it.
  const replicaId = crypto.randomUUID();
  const connections = createAgentConnections();
  const streams = createStreamHub({
    db,
    logs,
    publicUrl: settings.publicUrl,
    onError: (error) => logger.error('task stream failed', { error: String(error) }),
  });
  const workspaceEnv = (workspaceId: string) => envVars.valuesFor(workspaceId);
  const signals = createRunSignals({ db, pubsub, streams, hooks, logger });
  const commands = createAgentCommands({ db, logger, hooks, pubsub, replicaId, connections, workspaceEnv });
  let kick = () => {};
  const lifecycle = createRunLifecycle(
    { db, hooks },
    {
      finished: (taskId) => signals.taskFinished(taskId),
      command: (machineId, command) => commands.send(machineId, command),
      wake: () => kick(),
    },
  );
  const reasons = createPendingReasons({ db, logger, lifecycle, signals });
  const dispatcher = createDispatcher({ db, logger, lifecycle, reasons });
  kick = () => void dispatcher.kick();
  const liveThresholds = createLiveThresholds({ db, logger, lifecycle });
  const presence = createAgentPresence({ db, replicaId, settings });
  const sessions = createAgentSessions({
    db,
    logger,
    hooks,
    connections,
    presence,
    hello: createAgentHello({ db, replicaId, settings, connections, presence, commands, lifecycle, hooks, dispatcher }),
    machineReports: createAgentMachineReports({ db, dispatcher }),
    logBatches: createAgentLogBatches({ logs, signals }),
    metrics: createAgentMetrics({ db, liveThresholds }),
    progress: createAgentRunProgress({ lifecycle }),
  });
  const sweeper = createRunSweeper({
    db,
    logger,
    settings,
    logs,
    streams,
    lifecycle,
    commands,
    connections,
    presence,
    dispatcher,
    workers: options.workers,
  });
  const stopLogLines = logRunLines(hooks, sqlOf(db), logger);
  // Restart reconciliation: whatever a previous life left behind is settled before anything new happens.
  await sweeper.once();
  sweeper.start();

  return {
    tasks: createTaskService({ db, hooks, tools: options.tools, settings, lifecycle, dispatcher }),
    sessions,
    lifecycle,
    /** This replica's live task streams. */
    streams,
    /** The run log store (stored lines, limits, masking). */
    logs,
    /** The agent sockets this replica holds: to read and to close, never to change (the sessions own that). */
    connections: { list: connections.list, size: connections.size, closeAll: connections.closeAll } satisfies Pick<AgentConnections, 'list' | 'size' | 'closeAll'>,
    /** The workspace's environment variables in clear text, as its assignments carry them. */
    workspaceEnv,
    /** Asks a machine's agent to calibrate (POST /machines/{id}/calibrate); false when no replica holds its socket. */
    calibrate: (machineId: string) => commands.calibrate(machineId),
    sweep: sweeper.once,
    async stop() {
      await sweeper.stop();
      liveThresholds.stop();
      signals.stop();
      stopLogLines();
      connections.closeAll(1001, 'server stopping');
    },
  };
}

export type Runs = Awaited<ReturnType<typeof createRuns>>;
