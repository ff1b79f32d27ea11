/** An agent's word on its runs (started, finished, could not start), handed to the lifecycle, which owns every transition. */
import type { AgentMessage } from '../../agent/protocol.ts';
import type { AgentSocket } from './agent-socket.ts';
import type { RunLifecycle } from './run-lifecycle.ts';

type Progress = Extract<AgentMessage, { type: 'started' | 'finished' | 'start_failed' }>;

export function createAgentRunProgress(deps: { lifecycle: Pick<RunLifecycle, 'started' | 'finishAssignment' | 'failToStart'> }) {
  const { lifecycle } = deps;
  return {
    async report(socket: AgentSocket, message: Progress): Promise<void> {
      const machineId = socket.connection!.machineId;
      switch (message.type) {
        case 'started':
          return lifecycle.started(message.assignmentId, machineId);
        case 'finished':
          socket.forget(message.assignmentId);
          await lifecycle.finishAssignment(message.assignmentId, machineId, {
            status: message.status,
            reason: message.reason ?? null,
            exitCode: message.exitCode,
            summary: message.summary,
          });
          return;
        case 'start_failed':
          socket.forget(message.assignmentId);
          return lifecycle.failToStart(message.assignmentId, machineId, message.message);
      }
    },
  };
}

export type AgentRunProgress = ReturnType<typeof createAgentRunProgress>;
