/** An agent's interval metrics: checked, stored as a time-series point with its per-endpoint figures, then the live thresholds look. */
import type { AgentMessage } from '../../agent/protocol.ts';
import { snapshotProblem } from '../../domain/metrics/check-snapshot.ts';
import { LatencyHistogram } from '../../domain/metrics/histogram.ts';
import type { Database } from '../../ports/database.ts';
import { storeIntervalEndpoints } from '../metrics/run-endpoints.ts';
import { transaction } from '../sql.ts';
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
      const histogram = LatencyHistogram.decode(snapshot.histogram);
      const owner = { workspaceId: held.workspaceId, taskId: run.taskId, machineId: held.machineId };
      // The point and its per-endpoint figures and error groups together, or neither.
      await transaction(deps.db, async (tx) => {
        await tx.all(
          `insert into task_metric_points (task_id, workspace_id, machine_id, test_id, started_at, ended_at, requests, errors, p50, p95, p99, histogram, labels)
           values (?, ?, ?, ?, to_timestamp(? / 1000.0), to_timestamp(? / 1000.0), ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
          [
            run.taskId,
            held.workspaceId,
            held.machineId,
            run.testId,
            snapshot.startedAt,
            snapshot.endedAt,
            snapshot.requests,
            snapshot.errors,
            histogram.percentile(50),
            histogram.percentile(95),
            histogram.percentile(99),
            JSON.stringify(snapshot.histogram),
            JSON.stringify({ run: run.taskId, machine: held.machineId, test: run.testId }),
          ],
        );
        await storeIntervalEndpoints(tx, owner, snapshot);
      });
      deps.liveThresholds.intervalStored(run.taskId);
    },
  };
}

export type AgentMetrics = ReturnType<typeof createAgentMetrics>;
