/**
 * A listening in-process service with one agent registered for a fresh user's workspace, the fixture of run tests:
 * the agent in this process (startServiceWithAgent) or as a real `npm run agent` process (startServiceWithAgentProcess).
 */
import { startNodeAgent } from '../../adapters/agent/start-node-agent.ts';
import { loadToolPluginsOf } from '../../adapters/composition/plugins.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { type AgentProcess, startAgentProcess } from './agent-process.ts';
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

/** An agent's API token for the user of `jwt`, so its machine lands in that user's workspace. */
export async function agentToken(ts: TestService, jwt: string, name: string): Promise<string> {
  const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name, scopes: ['machines:write', 'runs:write'] } });
  return ((await created.json()) as { token: string }).token;
}

/**
 * An agent in this process for the user of `jwt`, with the service's load tools, once registered. It does not calibrate
 * unless asked (`calibration`): a calibration's engine process and requests would disturb tests that count them.
 */
export async function startInProcessAgent(
  ts: TestService,
  jwt: string,
  hostname: string,
  tokenName = hostname,
  calibration: Parameters<typeof startNodeAgent>[0]['calibration'] = false,
) {
  const agent = await startNodeAgent({
    serverUrl: ts.url,
    token: await agentToken(ts, jwt, tokenName),
    logger: silentLogger,
    // The service's load tools (the built-in ones and any LOADPLANE_PLUGINS named), as the local agent gets them.
    plugins: loadToolPluginsOf(ts.service),
    system: { hostname },
    calibration,
  });
  await agent.ready;
  return agent;
}

async function listeningService(username: string, options: Omit<TestServiceOptions, 'port'>) {
  const ts = await startTestService({ ...options, port: await freePort() });
  await ts.listen();
  return { ts, owner: await ts.apiToken(username) };
}

export async function startServiceWithAgent(
  username: string,
  options: Omit<TestServiceOptions, 'port'> = {},
): Promise<ServiceWithAgent> {
  const { ts, owner } = await listeningService(username, options);
  const agent = await startInProcessAgent(ts, owner.jwt, `${username}-agent`, 'agent');
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

export interface ServiceWithAgentProcess {
  ts: TestService;
  /** A full-access API token of the workspace's owner. */
  token: string;
  agent: AgentProcess;
  /** The agent's machine, known before any test runs (so no test depends on another). */
  machineId: string;
  stop(): Promise<void>;
}

/** The service and a real agent process (`npm run agent`), registered, with its machine id. */
export async function startServiceWithAgentProcess(
  username: string,
  options: Omit<TestServiceOptions, 'port'> & {
    hostname: string;
    /** The agent's extra arguments (`--plugins ...`). */
    agentArgs?: string[];
    /** The agent's extra environment (an engine's variable, such as GATLING_BIN). */
    agentEnv?: Record<string, string>;
    registerTimeoutMs?: number;
  },
): Promise<ServiceWithAgentProcess> {
  const { hostname, agentArgs, agentEnv, registerTimeoutMs, ...serviceOptions } = options;
  const { ts, owner } = await listeningService(username, serviceOptions);
  const agent = startAgentProcess({ serverUrl: ts.url, token: await agentToken(ts, owner.jwt, 'agent'), hostname, extraArgs: agentArgs, env: agentEnv });
  const stop = async () => {
    await agent.kill();
    await ts.stop();
  };
  try {
    await agent.registered(1, registerTimeoutMs);
    const listed = (await (await ts.request('/api/v1/machines', { token: owner.token })).json()) as { id: string; hostname: string }[];
    const machine = listed.find((m) => m.hostname === hostname);
    if (!machine) throw new Error(`no machine ${hostname} after the agent registered:\n${agent.output()}`);
    return { ts, token: owner.token, agent, machineId: machine.id, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** An engine's variable passed on to an agent process when this test process has it (GATLING_BIN, HEY_BIN...). */
export function passEnv(name: string): Record<string, string> {
  const value = process.env[name];
  return value ? { [name]: value } : {};
}
