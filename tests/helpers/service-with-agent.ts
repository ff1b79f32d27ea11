/** A listening in-process service with one in-process agent registered for a fresh user's workspace: the fixture of run tests. */
import { startNodeAgent } from '../../adapters/agent/start-node-agent.ts';
import { loadToolPluginsOf } from '../../adapters/composition/plugins.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { freePort } from './service-process.ts';
import { startTestService, type TestService, type TestServiceOptions } from './test-service.ts';

export interface ServiceWithAgent {
  ts: TestService;
  /** A full-access API token of the workspace's owner. */
  token: string;
  jwt: string;
  agent: Awaited<ReturnType<typeof startNodeAgent>>;
  stop(): Promise<void>;
}

export async function startServiceWithAgent(
  username: string,
  options: Omit<TestServiceOptions, 'port'> = {},
): Promise<ServiceWithAgent> {
  const ts = await startTestService({ ...options, port: await freePort() });
  await ts.listen();
  const owner = await ts.apiToken(username);
  // The agent's token belongs to the same user, so its machine lands in that user's workspace.
  const created = await ts.request('/api/v1/api-tokens', {
    method: 'POST',
    token: owner.jwt,
    json: { name: 'agent', scopes: ['machines:write', 'runs:write'] },
  });
  const agent = await startNodeAgent({
    serverUrl: ts.url,
    token: ((await created.json()) as { token: string }).token,
    logger: silentLogger,
    // The service's load tools (the built-in ones and any LOADPLANE_PLUGINS named), as the local agent gets them.
    plugins: loadToolPluginsOf(ts.service),
    system: { hostname: `${username}-agent` },
  });
  await agent.ready;
  return {
    ts,
    token: owner.token,
    jwt: owner.jwt,
    agent,
    async stop() {
      await agent.shutdown();
      await ts.stop();
    },
  };
}
