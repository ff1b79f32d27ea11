/** One agent socket as its session's message handlers share it: who opened it, how to answer, the machine it holds. */
import type { Database } from '../../ports/database.ts';
import type { Caller } from '../caller.ts';
import { sqlOf } from '../sql.ts';
import type { AgentConnection } from './agent-connections.ts';

/** How the server answers on the socket (the route's WebSocket). */
export type AgentTransport = Pick<AgentConnection, 'send' | 'close'>;

/** The task (and its test) an assignment of this socket belongs to. */
export interface AssignmentRun {
  taskId: string;
  testId: string;
}

export interface AgentSocket {
  readonly caller: Caller;
  readonly transport: AgentTransport;
  /** Set by the hello that got its machine (until then, and after a hello that lost it, null). */
  connection: AgentConnection | null;
  /** The run of an assignment of this socket's machine; null when it is none of its own. */
  runOf(assignmentId: string): Promise<AssignmentRun | null>;
  /** The assignment ended: no more messages of it are expected. */
  forget(assignmentId: string): void;
}

export function createAgentSocket(db: Database, caller: Caller, transport: AgentTransport): AgentSocket {
  const sql = sqlOf(db);
  // Remembered per socket: log batches arrive often, and an assignment never changes task.
  const runs = new Map<string, AssignmentRun>();
  const socket: AgentSocket = {
    caller,
    transport,
    connection: null,
    async runOf(assignmentId) {
      const known = runs.get(assignmentId);
      if (known) return known;
      const rows = await sql.all<{ task_id: string; test_id: string }>(
        'select a.task_id, t.test_id from task_assignments a join tasks t on t.id = a.task_id where a.id = ? and a.machine_id = ?',
        [assignmentId, socket.connection!.machineId],
      );
      if (!rows[0]) return null;
      const entry = { taskId: rows[0].task_id, testId: rows[0].test_id };
      runs.set(assignmentId, entry);
      return entry;
    },
    forget: (assignmentId) => void runs.delete(assignmentId),
  };
  return socket;
}
