/** An agent's log batches: queued batches of one assignment coalesced, stored in one transaction, handed to the streams. */
import type { AgentMessage } from '../../agent/protocol.ts';
import type { AgentSocket } from './agent-socket.ts';
import type { LogStore } from './log-store.ts';
import type { RunSignals } from './run-signals.ts';

export type LogMessage = Extract<AgentMessage, { type: 'log' }>;

/** Lines stored in one transaction at most when queued batches are coalesced. */
const maxCoalescedLines = 10_000;

/**
 * Takes from the head of `inbox` the batches that continue `first` (same assignment, next sequence numbers), up to
 * `maxCoalescedLines`: a flood that queued up is stored in one transaction, not one each.
 */
export function takeLogGroup(first: LogMessage, inbox: AgentMessage[]): LogMessage[] {
  const group: LogMessage[] = [first];
  let lines = first.lines.length;
  while (inbox.length > 0 && lines < maxCoalescedLines) {
    const next = inbox[0]!;
    if (next.type !== 'log' || next.assignmentId !== first.assignmentId || next.seq !== group[group.length - 1]!.seq + 1) break;
    inbox.shift();
    group.push(next);
    lines += next.lines.length;
  }
  return group;
}

export interface AgentLogBatchesDeps {
  logs: Pick<LogStore, 'append'>;
  signals: Pick<RunSignals, 'linesStored'>;
}

export function createAgentLogBatches(deps: AgentLogBatchesDeps) {
  return {
    /** Stores consecutive batches of one assignment in one transaction; a group that overlaps stored ones goes one by one. */
    async store(socket: AgentSocket, group: readonly LogMessage[]): Promise<void> {
      const first = group[0]!;
      const run = await socket.runOf(first.assignmentId);
      if (!run) return;
      const machineId = socket.connection!.machineId;
      const source = { assignmentId: first.assignmentId, machineId, fromBatch: first.seq, batch: group[group.length - 1]!.seq };
      const stored = await deps.logs.append(run.taskId, source, group.flatMap((m) => m.lines));
      if (stored.lines.length === 0 && group.length > 1) {
        for (const message of group) {
          const one = await deps.logs.append(run.taskId, { assignmentId: message.assignmentId, machineId, batch: message.seq }, message.lines);
          deps.signals.linesStored(run.taskId, one.lines);
        }
        return;
      }
      deps.signals.linesStored(run.taskId, stored.lines);
    },
  };
}

export type AgentLogBatches = ReturnType<typeof createAgentLogBatches>;
