/** The scopes an agent's token needs (docs/agents.md, "Starting an agent") and the commands that start one with it. */

export const AGENT_SCOPES = ['machines:write', 'runs:write'] as const;

/** Shell-quotes a value for a POSIX shell. */
function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function agentTokenFileCommand(token: string): string {
  return `(umask 077 && echo ${quote(token)} > agent-token)`;
}

export function agentStartCommand(origin: string): string {
  return `LOADPLANE_URL=${origin} npm run agent -- --token-file agent-token`;
}
