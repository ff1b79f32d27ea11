/**
 * A diagnostic agent for the log-path benchmark: the real agent (core/agent/agent.ts, the same plugins, process runner
 * and WebSocket client as `npm run agent`) with a different log batch window, to measure what the window costs in
 * line latency. Not a product entry point: `npm run agent` has no such flag on purpose.
 *
 *   bun bench/runs/agent-variant.ts --server URL --token psk_... --hostname NAME --batch-ms 5
 */
import { parseArgs } from 'node:util';
import { detectSystem } from '../../adapters/agent/system-info.ts';
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import { agentVersion, bunSocket, loadToolPlugins, resolveK6Binary } from '../../adapters/agent/start-node-agent.ts';
import { startAgent } from '../../core/agent/agent.ts';
import { loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { createConsoleLogger } from '../../core/kernel/console-logger.ts';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { loadPlugins } from '../../core/kernel/load-plugins.ts';
import { programLookupPort } from '../../core/ports/program-lookup.ts';
import { builtinPlugins } from '../../plugins/builtin.ts';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { server: { type: 'string' }, token: { type: 'string' }, hostname: { type: 'string' }, 'batch-ms': { type: 'string' } },
  strict: true,
});


const logger = createConsoleLogger('info', { component: 'agent' });
const runner = createNodeProcessRunner();
const kernel = await createKernel({
  plugins: await loadPlugins(loadToolPlugins, builtinPlugins),
  logger,
  provided: [[programLookupPort, runner.which]],
  pluginConfig: { 'load-tool-k6': { binary: resolveK6Binary() } },
});
const tools = new Map(kernel.getAll(loadToolCapability).map((tool) => [tool.tool, tool]));
const agent = startAgent({
  serverUrl: values.server!,
  token: values.token!,
  system: detectSystem({ hostname: values.hostname }),
  version: agentVersion,
  tools,
  runner,
  baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
  logger,
  connect: bunSocket,
  logBatchMillis: Number(values['batch-ms'] ?? 50),
});
process.on('SIGTERM', async () => {
  await agent.stop();
  await kernel.stop();
  process.exit(0);
});
