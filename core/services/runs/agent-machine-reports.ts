/** What an agent reports about its machine after its hello: tools found meanwhile, and its calibration. */
import type { AgentMessage } from '../../agent/protocol.ts';
import { roundCapacity } from '../../domain/machine-rules.ts';
import type { Database } from '../../ports/database.ts';
import { sqlOf } from '../sql.ts';
import type { AgentConnection } from './agent-connections.ts';
import type { Dispatcher } from './dispatcher.ts';

export interface AgentMachineReportsDeps {
  db: Database;
  /** A machine that offers a new tool may take waiting work. */
  dispatcher: Pick<Dispatcher, 'kick'>;
}

export function createAgentMachineReports(deps: AgentMachineReportsDeps) {
  const sql = sqlOf(deps.db);
  return {
    /** The agent found a tool after its hello (an engine installed meanwhile): the machine offers it from now. */
    async toolsChanged(held: AgentConnection, message: Extract<AgentMessage, { type: 'tools' }>): Promise<void> {
      // Only while this socket holds the machine: a replaced socket's late report must not undo the newer one's.
      const rows = await sql.all(
        'update machines set tools = ?::jsonb, tool_versions = ?::jsonb, tool_problems = ?::jsonb, updated_at = now() where id = ? and connection_id = ? returning id',
        [
          JSON.stringify(message.tools),
          JSON.stringify(reportedVersions(message.tools, message.tool_versions)),
          JSON.stringify(reportedProblems(message.tools, message.tool_problems)),
          held.machineId,
          held.connectionId,
        ],
      );
      if (rows.length === 0) return;
      held.tools = message.tools;
      void deps.dispatcher.kick();
    },

    /** The agent's calibration: the machine's capacity, while this socket holds it (a replaced socket's late figure is dropped). */
    async calibrated(held: AgentConnection, message: Extract<AgentMessage, { type: 'calibration' }>): Promise<void> {
      await sql.all('update machines set benchmark_capacity = ?, updated_at = now() where id = ? and connection_id = ?', [
        roundCapacity(message.requests_per_sec),
        held.machineId,
        held.connectionId,
      ]);
    },
  };
}

export type AgentMachineReports = ReturnType<typeof createAgentMachineReports>;

/** Why the agent offers no more, for the tools it does not offer only (a task waiting for one quotes it). */
export function reportedProblems(tools: readonly string[], problems: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [tool, reason] of Object.entries(problems ?? {})) if (!tools.includes(tool) && typeof reason === 'string') kept[tool] = reason;
  return kept;
}

/** The versions the agent reported, for the tools it offers only. */
export function reportedVersions(tools: readonly string[], versions: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const tool of tools) if (versions && typeof versions[tool] === 'string') kept[tool] = versions[tool];
  return kept;
}
