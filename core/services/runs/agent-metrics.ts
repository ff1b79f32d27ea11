/** An agent's interval metrics: checked, stored as a time-series point with its per-endpoint figures, then the live thresholds look. */
import type { AgentMessage } from '../../agent/protocol.ts';
import { snapshotProblem } from '../../domain/metrics/check-snapshot.ts';
import type { Database } from '../../ports/database.ts';
import { storeMetricInterval } from '../metrics/store-metric-interval.ts';
import type { AgentSocket } from './agent-socket.ts';
import type { LiveThresholds } from './live-thresholds.ts';

export interface AgentMetricsDeps {
  db: Database;
  /** Checks the run's abort thresholds after each stored interval. */
  liveThresholds: Pick<LiveThresholds, 'intervalStored'>;
}

export function createAgentMetrics(deps: AgentMetricsDeps) {
  return {
    async store(socket: AgentSocket, { assignmentId, snapshot }: Extract<AgentMessage, { type: 'metrics' }>): Promise<void> {
      const problem = snapshotProblem(snapshot);
      if (problem) {
        socket.transport.send({ type: 'error', message: `metrics refused: ${problem}` });
        return;
      }
      const run = await socket.runOf(assignmentId);
      if (!run) return;
      const held = socket.connection!;
      // The point and its per-endpoint figures and error groups together, or neither.
      await storeMetricInterval(deps.db, { workspaceId: held.workspaceId, taskId: run.taskId, testId: run.testId, machineId: held.machineId }, snapshot);
      deps.liveThresholds.intervalStored(run.taskId);
    },
  };
}

export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
