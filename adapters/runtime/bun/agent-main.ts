/** `npm run agent -- --server URL --token psk_...`: the agent of a load-generator machine; dials out, no inbound port. */
import { parseArgs } from 'node:util';
import { startNodeAgent } from '../../agent/start-node-agent.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { parseSandboxMode } from '../../process/sandbox/open-tool-sandbox.ts';

const usage = `usage: npm run agent -- --server URL --token psk_... [--name NAME] [--hostname HOST]
  --server    the Loadplane origin, e.g. https://loadplane.example.com (env LOADPLANE_SERVER)
  --token     an API token with scopes machines:write and runs:write (env LOADPLANE_TOKEN)
  --name      display name of this machine (default: its hostname)
  --hostname  register under this hostname (default: the system's)
  --sandbox   on (default): tools run in a bubblewrap sandbox, or not at all; off: without isolation, at your
              own risk (env AGENT_SANDBOX)`;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    server: { type: 'string' },
    token: { type: 'string' },
    name: { type: 'string' },
    hostname: { type: 'string' },
    sandbox: { type: 'string' },
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
const logger = createConsoleLogger((process.env.LOG_LEVEL as 'info') ?? 'info', { component: 'agent' });
const agent = await startNodeAgent({
  serverUrl: server,
  token,
  logger,
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
