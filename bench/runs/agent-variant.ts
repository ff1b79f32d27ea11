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
import { toolsUnderSandbox } from '../../adapters/agent/sandbox-policy.ts';
import { toolBaseEnv } from '../../adapters/agent/tool-env.ts';
import { agentVersion, bunSocket, createAgentRunner, loadToolPlugins, resolveK6Binary } from '../../adapters/agent/start-node-agent.ts';
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
// The same tool sandbox as the real agent (AGENT_SANDBOX, default on), so the variant differs in its batch window only.
const k6Binary = resolveK6Binary();
const { runner, sandbox, refusal } = await createAgentRunner({ mode: parseSandboxMode(process.env.AGENT_SANDBOX) ?? 'on', k6Binary });
const kernel = await createKernel({
  plugins: await loadPlugins(loadToolPlugins, builtinPlugins),
  logger,
  provided: [[programLookupPort, runner.which]],
  pluginConfig: { 'load-tool-k6': { binary: k6Binary } },
});
const tools = toolsUnderSandbox(new Map(kernel.getAll(loadToolCapability).map((tool) => [tool.tool, tool])), { sandbox, refusal }, logger);
const agent = startAgent({
  serverUrl: values.server!,
  token: values.token!,
  system: detectSystem({ hostname: values.hostname }),
  version: agentVersion,
  tools,
  runner,
  baseEnv: toolBaseEnv(process.env),
  logger,
  connect: bunSocket,
  logBatchMillis: Number(values['batch-ms'] ?? 50),
});
process.on('SIGTERM', async () => {
  await agent.stop();
  await kernel.stop();
  await sandbox?.dispose();
  process.exit(0);
});
