/**
 * `loadplane agent --region NAME` (or AGENT_REGION) as a real process: its hello names the region, which GET
 * /machines/{id} then shows; the flag wins over the variable; a region that is no region name stops the agent with a
 * usage error (exit 2) before it connects.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { freePort } from '../helpers/service-process.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let jwt: string;
let token: string;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  await ts.listen();
  ({ jwt } = await ts.apiToken('region-owner'));
  token = await agentToken(ts, jwt, 'region agents');
}, 60_000);

afterAll(async () => {
  for (const agent of agents) await agent.kill('SIGKILL');
  await ts?.stop();
});

/** The machine an agent registered as `hostname`, read through GET /machines/{id}. */
async function machineOf(hostname: string) {
  const listed = (await (await ts.request('/api/v1/machines', { token: jwt })).json()) as { id: string; hostname: string }[];
  const id = listed.find((machine) => machine.hostname === hostname)!.id;
  return (await (await ts.request(`/api/v1/machines/${id}`, { token: jwt })).json()) as { hostname: string; region: string | null; agent_version: string | null };
}

test('--region and AGENT_REGION reach the machine; the flag wins over the variable; none: null', async () => {
  const started = [
    startAgentProcess({ serverUrl: ts.url, token, hostname: 'region-flag', extraArgs: ['--region', 'eu-west-1'] }),
    startAgentProcess({ serverUrl: ts.url, token, hostname: 'region-env', env: { AGENT_REGION: 'us-east-2' } }),
    startAgentProcess({ serverUrl: ts.url, token, hostname: 'region-both', extraArgs: ['--region', 'ap-south-1'], env: { AGENT_REGION: 'us-east-2' } }),
    startAgentProcess({ serverUrl: ts.url, token, hostname: 'region-none' }),
  ];
  agents.push(...started);
  for (const agent of started) await agent.registered();
  expect(await machineOf('region-flag')).toMatchObject({ region: 'eu-west-1', agent_version: expect.any(String) });
  expect((await machineOf('region-env')).region).toBe('us-east-2');
  expect((await machineOf('region-both')).region).toBe('ap-south-1');
  expect((await machineOf('region-none')).region).toBeNull();
}, 90_000);

test('a region that is no region name is a usage error: exit 2 with the reason, no machine', async () => {
  const agent = startAgentProcess({ serverUrl: ts.url, token, hostname: 'region-bad', extraArgs: ['--region', 'eu west'] });
  agents.push(agent);
  expect(await agent.exited()).toBe(2);
  expect(agent.output()).toContain("--region (or AGENT_REGION): must be 1 to 64 letters, digits, '.', '_' or '-'");
  const listed = (await (await ts.request('/api/v1/machines', { token: jwt })).json()) as { hostname: string }[];
  expect(listed.map((machine) => machine.hostname)).not.toContain('region-bad');
}, 60_000);
