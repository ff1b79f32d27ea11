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
import { createAgentPresence } from './agent-presence.ts';
import { createAgentSessions } from './agent-sessions.ts';
import { createDispatcher } from './dispatcher.ts';
import { createLiveThresholds } from './live-thresholds.ts';
import { createLogStore } from './log-store.ts';
import { createPendingReasons } from './pending-reasons.ts';
import type { RunContext, RunSettings } from './run-context.ts';
import { createRunLifecycle } from './run-lifecycle.ts';
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
  const logger = options.logger;
  const ctx: RunContext = {
    db: options.db,
    logs,
    streams: createStreamHub({
      db: options.db,
      logs,
      publicUrl: options.settings.publicUrl,
      onError: (error) => logger.error('task stream failed', { error: String(error) }),
    }),
    hooks: options.hooks,
    logger,
    settings: options.settings,
    tools: options.tools,
    pubsub: options.pubsub,
    replicaId: crypto.randomUUID(),
    connections: new Map(),
    workspaceEnv: (workspaceId) => envVars.valuesFor(workspaceId),
  };
  const signals = createRunSignals(ctx);
  const commands = createAgentCommands(ctx);
  let kick = () => {};
  const lifecycle = createRunLifecycle(ctx, {
    finished: (taskId) => signals.taskFinished(taskId),
    command: (machineId, command) => commands.send(machineId, command),
    wake: () => kick(),
  });
  const dispatcher = createDispatcher(ctx, lifecycle, createPendingReasons(ctx, lifecycle, signals));
  kick = () => void dispatcher.kick();
  const liveThresholds = createLiveThresholds(ctx, lifecycle);
  const sessions = createAgentSessions(ctx, { lifecycle, commands, presence: createAgentPresence(ctx), signals, dispatcher, liveThresholds });
  const sweeper = createRunSweeper(ctx, { lifecycle, commands, sessions, dispatcher, workers: options.workers });
  const stopLogLines = logRunLines(ctx.hooks, sqlOf(options.db), logger);
  // Restart reconciliation: whatever a previous life left behind is settled before anything new happens.
  await sweeper.once();
  sweeper.start();

  return {
    context: ctx,
    tasks: createTaskService(ctx, lifecycle, dispatcher),
    sessions,
    lifecycle,
    /** Asks a machine's agent to calibrate (POST /machines/{id}/calibrate); false when no replica holds its socket. */
    calibrate: (machineId: string) => commands.calibrate(machineId),
    sweep: sweeper.once,
    async stop() {
      await sweeper.stop();
      liveThresholds.stop();
      signals.stop();
      stopLogLines();
      for (const connection of ctx.connections.values()) connection.close(1001, 'server stopping');
    },
  };
}

export type Runs = Awaited<ReturnType<typeof createRuns>>;
