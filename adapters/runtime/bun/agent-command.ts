/** `loadplane agent`: the agent of a load-generator machine; dials out to the service, no inbound port. */
import { parseArgs } from 'node:util';
import { formatToolReport, startNodeAgent } from '../../agent/start-node-agent.ts';
import { AgentStateError, defaultStateDir, openAgentState } from '../../agent/agent-state.ts';
import { checkAgentHealth, recordAgentHealth } from '../../agent/agent-health.ts';
import { agentPluginDir } from '../../composition/plugin-directory.ts';
import { loadAgentPlugins } from '../../composition/plugins.ts';
import { operatorPluginConfig } from '../../composition/operator-plugin-config.ts';
import { PluginSourcesError, readPluginSources } from '../../../config/plugin-sources.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { DomainError, KernelBootError } from '../../../core/kernel/errors.ts';
import { normalizeRegion } from '../../../core/domain/machine-rules.ts';
import { parseSandboxMode } from '../../process/sandbox/open-tool-sandbox.ts';
import { resolveConnection, UsageError } from './cli-connection.ts';

export const agentUsage = `usage: loadplane agent [--server URL] [--token-file FILE] [--hostname HOST] [--name NAME] [--region NAME]
                      [--state-dir DIR] [--sandbox on|off] [--plugins a,b] [--no-calibration]
       loadplane agent --health [--state-dir DIR]
  (in the repository: npm run agent -- ...)

  --server      the Loadplane origin, e.g. https://loadplane.example.com (env LOADPLANE_URL)
  --token-file  a file holding an API token with scopes machines:write and runs:write, that not every user may read
                (mode 600, or 640 for a group); or env LOADPLANE_TOKEN. --token psk_... works too, but every user
                of the machine sees it in ps
  --hostname    register under this hostname (default: the system's). When another connected agent's machine has
                the hostname, this agent becomes the machine <hostname>-2 (-3 ...) and says so
  --name        display name of a new machine (default: its hostname)
  --region      where the machine runs, e.g. eu-west-1 (env AGENT_REGION): letters, digits, '.', '_' and '-', at
                most 64; shown as the machine's region. Without it the machine keeps the region it has
  --state-dir   where the agent keeps its identity, the machine key that makes it one machine whatever its hostname
                (env AGENT_STATE_DIR; default $XDG_STATE_HOME/loadplane-agent or ~/.local/state/loadplane-agent).
                One directory per agent: a second agent on it refuses to start
  --sandbox     on (default): tools run in a bubblewrap sandbox, or not at all; off: without isolation, at your
                own risk (env AGENT_SANDBOX)
  --plugins     more load-tool plugins by package name, comma-separated (installed beside Loadplane, e.g.
                loadplane-plugin-hey), besides the built-in ones; the server needs them too (LOADPLANE_PLUGINS).
                Their settings, as the service's: env LOADPLANE_PLUGIN_<NAME>_<KEY> (e.g.
                LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY=/opt/k6/k6) over the JSON file env LOADPLANE_CONFIG names.
                Plugins installed with \`loadplane plugin install --agent\` load without naming them: they are
                listed in env AGENT_PLUGINS_DIR (default ~/.cache/loadplane/plugins)
  --no-calibration
                do not measure the machine's capacity (env AGENT_CALIBRATION=false). By default the agent runs the
                http tool for about 3 s against a loopback target of its own after it registers, and again when
                asked (POST /machines/{id}/calibrate), only while it runs no task; the figure is the machine's
                benchmark_capacity (requests/s)
  --health      exit 0 when the agent running on this state directory is registered with the service, else 1 with
                the reason (a container's or supervisor's health check)

At start the agent prints the load tools it found, with their versions, and how to install what is missing
(bash scripts/install-engines <engine>). It looks again every AGENT_REDETECT_SECONDS (10) for what was missing, so an
engine installed meanwhile is offered without a restart. Exit codes: 2 usage or state directory refused, 3 the
machine was deleted in the service.`;

function refuse(message: string): never {
  console.error(`loadplane agent: ${message}\n\n${agentUsage}`);
  process.exit(2);
}

export async function runAgentCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        name: { type: 'string' },
        hostname: { type: 'string' },
        region: { type: 'string' },
        'state-dir': { type: 'string' },
        sandbox: { type: 'string' },
        plugins: { type: 'string' },
        health: { type: 'boolean' },
        'no-calibration': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    refuse((error as Error).message);
  }
  if (values.help) {
    console.log(agentUsage);
    return;
  }
  if (values.health) {
    const verdict = checkAgentHealth(values['state-dir'] ?? defaultStateDir(env));
    (verdict.healthy ? console.log : console.error)(`loadplane agent: ${verdict.message}`);
    process.exit(verdict.healthy ? 0 : 1);
  }
  let connection;
  try {
    connection = resolveConnection({ server: values.server, token: values.token, tokenFile: values['token-file'] }, env);
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    throw error;
  }
  for (const warning of connection.warnings) console.error(`loadplane agent: ${warning}`);
  const sandbox = parseSandboxMode(values.sandbox ?? env.AGENT_SANDBOX);
  if (!sandbox) refuse(`--sandbox (or AGENT_SANDBOX) must be on or off, got "${values.sandbox ?? env.AGENT_SANDBOX}"`);
  let region: string | null;
  try {
    region = normalizeRegion(values.region ?? env.AGENT_REGION ?? null);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    refuse(`--region (or AGENT_REGION): ${error.message.replace(/^region /, '')}`);
  }
  const redetectSeconds = Number(env.AGENT_REDETECT_SECONDS ?? 10);
  if (!Number.isFinite(redetectSeconds) || redetectSeconds < 0) refuse(`AGENT_REDETECT_SECONDS must be a number of seconds (0: never), got "${env.AGENT_REDETECT_SECONDS}"`);
  const calibrationEnv = (env.AGENT_CALIBRATION ?? '').trim().toLowerCase();
  // The words the service's own AGENT_CALIBRATION takes (config/load-config.ts), so one value serves both.
  if (!['', 'true', '1', 'yes', 'on', 'false', '0', 'no', 'off'].includes(calibrationEnv)) refuse(`AGENT_CALIBRATION must be true or false, got "${env.AGENT_CALIBRATION}"`);
  const calibration = !values['no-calibration'] && !['false', '0', 'no', 'off'].includes(calibrationEnv);
  const pluginNames = (values.plugins ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const format = env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty' ? env.LOG_FORMAT : process.stderr.isTTY ? 'pretty' : 'json';
  const logger = createConsoleLogger((env.LOG_LEVEL as 'info') ?? 'info', { component: 'agent' }, format);

  let identity;
  try {
    identity = openAgentState(values['state-dir'] ?? defaultStateDir(env));
  } catch (error) {
    if (error instanceof AgentStateError) refuse(error.message);
    throw error;
  }
  let plugins;
  try {
    plugins = await loadAgentPlugins(pluginNames, agentPluginDir(env));
  } catch (error) {
    identity.release();
    if (!(error instanceof KernelBootError)) throw error;
    console.error(`loadplane agent: ${error.message}\n(a plugin named in --plugins must be installed: loadplane plugin install --agent <package>)`);
    process.exit(2);
  }
  // The same plugin settings as the service's: LOADPLANE_PLUGIN_<NAME>_<KEY> over the LOADPLANE_CONFIG file.
  let pluginConfig;
  try {
    pluginConfig = operatorPluginConfig('agent', plugins, readPluginSources(env), logger).slices();
  } catch (error) {
    identity.release();
    if (!(error instanceof KernelBootError) && !(error instanceof PluginSourcesError)) throw error;
    console.error(`loadplane agent: ${error.message}`);
    process.exit(2);
  }
  const agent = await startNodeAgent({
    serverUrl: connection.server,
    token: connection.token,
    logger,
    plugins,
    pluginConfig,
    // For the person at the terminal: what this machine can run, and how to install what it cannot.
    onToolReport: (report) => console.log(formatToolReport(report)),
    system: { ...(values.name ? { name: values.name } : {}), ...(values.hostname ? { hostname: values.hostname } : {}), ...(region ? { region } : {}) },
    sandbox,
    // Its tools must not read the machine key or the token, wherever they are kept (a volume, /etc, ...).
    hide: [identity.dir, ...(values['token-file'] ? [values['token-file']] : [])],
    identity,
    hostnameHint: 'start it with --hostname NAME',
    redetectMillis: redetectSeconds * 1000,
    ...(calibration ? {} : { calibration: false as const }),
    // The machine was deleted in the service: exit non-zero, so a supervisor shows it rather than looping.
    onRetired: () => {
      identity.release();
      process.exit(3);
    },
  });
  const health = recordAgentHealth(identity.dir, agent);
  const stop = async () => {
    health.stop();
    await agent.shutdown();
    identity.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
