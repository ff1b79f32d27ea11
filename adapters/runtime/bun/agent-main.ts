/** `npm run agent -- --server URL --token psk_...`: the agent of a load-generator machine; dials out, no inbound port. */
import { parseArgs } from 'node:util';
import { formatToolReport, startNodeAgent } from '../../agent/start-node-agent.ts';
import { loadAgentPlugins } from '../../composition/plugins.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { KernelBootError } from '../../../core/kernel/errors.ts';
import { parseSandboxMode } from '../../process/sandbox/open-tool-sandbox.ts';

const usage = `usage: npm run agent -- --server URL --token psk_... [--name NAME] [--hostname HOST] [--plugins a,b]
  --server    the Loadplane origin, e.g. https://loadplane.example.com (env LOADPLANE_SERVER)
  --token     an API token with scopes machines:write and runs:write (env LOADPLANE_TOKEN)
  --name      display name of this machine (default: its hostname)
  --hostname  register under this hostname (default: the system's)
  --sandbox   on (default): tools run in a bubblewrap sandbox, or not at all; off: without isolation, at your
              own risk (env AGENT_SANDBOX)
  --plugins   more load-tool plugins by package name, comma-separated (installed beside Loadplane, e.g.
              loadplane-plugin-hey), besides the built-in ones; the server needs them too (LOADPLANE_PLUGINS)

At start the agent prints the load tools it found, with their versions, and how to install what is missing
(bash scripts/install-engines <engine>).`;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    server: { type: 'string' },
    token: { type: 'string' },
    name: { type: 'string' },
    hostname: { type: 'string' },
    sandbox: { type: 'string' },
    plugins: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const server = values.server ?? process.env.LOADPLANE_SERVER;
const token = values.token ?? process.env.LOADPLANE_TOKEN;
if (!server || !/^https?:\/\//.test(server) || !token?.startsWith('psk_')) {
  console.error(`loadplane agent: --server (http or https URL) and --token (psk_...) are required\n${usage}`);
  process.exit(2);
}
const sandbox = parseSandboxMode(values.sandbox ?? process.env.AGENT_SANDBOX);
if (!sandbox) {
  console.error(`loadplane agent: --sandbox (or AGENT_SANDBOX) must be on or off, got "${values.sandbox ?? process.env.AGENT_SANDBOX}"\n${usage}`);
  process.exit(2);
}
const pluginNames = (values.plugins ?? '').split(',').map((name) => name.trim()).filter(Boolean);
const logger = createConsoleLogger((process.env.LOG_LEVEL as 'info') ?? 'info', { component: 'agent' });
let plugins;
try {
  plugins = await loadAgentPlugins(pluginNames);
} catch (error) {
  if (!(error instanceof KernelBootError)) throw error;
  console.error(`loadplane agent: ${error.message}\n(a plugin named in --plugins must be installed beside Loadplane: npm install <package>)`);
  process.exit(2);
}
const agent = await startNodeAgent({
  serverUrl: server,
  token,
  logger,
  plugins,
  // For the person at the terminal: what this machine can run, and how to install what it cannot.
  onToolReport: (report) => console.log(formatToolReport(report)),
  system: { ...(values.name ? { name: values.name } : {}), ...(values.hostname ? { hostname: values.hostname } : {}) },
  sandbox,
  // The machine was deleted in the service: exit non-zero, so a supervisor shows it rather than looping.
  onRetired: () => process.exit(3),
});
const stop = async () => {
  await agent.shutdown();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
