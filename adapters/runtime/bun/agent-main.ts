/** The agent's former entry, kept for scripts that name it: the same as `loadplane agent` (adapters/runtime/bun/loadplane.ts). */
import { runAgentCommand } from './agent-command.ts';

await runAgentCommand(process.argv.slice(2), process.env);
