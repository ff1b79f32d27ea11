/**
 * A diagnostic agent for the log-path benchmark: the real agent (core/agent/agent.ts, the same plugins, process runner
 * and WebSocket client as `npm run agent`) with a different log batch window, to measure what the window costs in
 * line latency. Not a product entry point: `npm run agent` has no such flag on purpose.
 *
 *   bun bench/runs/agent-variant.ts --server URL --token psk_... --hostname NAME --batch-ms 5
 */
import { parseArgs } from 'node:util';
import { detectSystem } from '../../adapters/agent/system-info.ts';
import { parseSandboxMode } from '../../adapters/process/sandbox/open-tool-sandbox.ts';
import { toolBaseEnv } from '../../adapters/agent/tool-env.ts';
import { agentVersion, bunSocket, prepareAgentHost } from '../../adapters/agent/start-node-agent.ts';
import { loadAgentPlugins } from '../../adapters/composition/plugins.ts';
import { startAgent } from '../../core/agent/agent.ts';
import { createConsoleLogger } from '../../core/kernel/console-logger.ts';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { server: { type: 'string' }, token: { type: 'string' }, hostname: { type: 'string' }, 'batch-ms': { type: 'string' }, sandbox: { type: 'string' } },
  strict: true,
});


const logger = createConsoleLogger('info', { component: 'agent' });
// The same tool sandbox as the real agent (--sandbox or AGENT_SANDBOX, default on), so the variant differs in its batch window only.
const host = await prepareAgentHost({
  plugins: await loadAgentPlugins(),
  logger,
  sandbox: parseSandboxMode(values.sandbox ?? process.env.AGENT_SANDBOX) ?? 'on',
});
const agent = startAgent({
  serverUrl: values.server!,
  token: values.token!,
  system: detectSystem({ hostname: values.hostname }),
  version: agentVersion,
  tools: host.tools,
  toolVersions: host.toolVersions,
  runner: host.runner,
  baseEnv: toolBaseEnv(process.env),
  logger,
  connect: bunSocket,
  logBatchMillis: Number(values['batch-ms'] ?? 50),
});
process.on('SIGTERM', async () => {
  await agent.stop();
  await host.dispose();
  process.exit(0);
});
