/** The agent's install commands: the token written to a private file, the agent started with --token-file. */
import { describe, expect, test } from 'bun:test';
import { AGENT_SCOPES, agentStartCommand, agentTokenFileCommand } from './agent-install';

describe('agent install commands', () => {
  test('scopes as docs/agents.md says', () => {
    expect([...AGENT_SCOPES]).toEqual(['machines:write', 'runs:write']);
  });
  test('the token file is private and the token quoted', () => {
    expect(agentTokenFileCommand('psk_abc')).toBe("(umask 077 && echo 'psk_abc' > agent-token)");
    expect(agentTokenFileCommand("a'b")).toBe("(umask 077 && echo 'a'\\''b' > agent-token)");
    expect(agentStartCommand('https://lp.example.com')).toBe('LOADPLANE_URL=https://lp.example.com npm run agent -- --token-file agent-token');
  });
});
