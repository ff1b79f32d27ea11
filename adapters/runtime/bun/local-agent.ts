/**
 * The embedded default's local agent: in the service's process, over loopback, through the real agent path, for the
 * first workspace. Its identity (machine key) lives in DATA_DIR, which its tools cannot see, so `npm run agent` on the
 * same host is another machine beside it, not a rival for this one.
 */
import { join } from 'node:path';
import type { Service } from '../../../core/boot-service.ts';
import { type Logger, silentLogger } from '../../../core/kernel/logger.ts';
import { provisionLocalAgentToken } from '../../../core/services/runs/local-agent-account.ts';
import { loadToolPluginsOf } from '../../composition/plugins.ts';
import { operatorPluginConfig } from '../../composition/operator-plugin-config.ts';
import { noPluginSources, type PluginSources } from '../../../config/plugin-sources.ts';
import type { SandboxMode } from '../../process/sandbox/open-tool-sandbox.ts';
import { openAgentState } from '../../agent/agent-state.ts';
import { startNodeAgent, type ToolReport } from '../../agent/start-node-agent.ts';

export async function startLocalAgent(
  service: Service,
  options: {
    serverUrl: string;
    dataDir: string;
    /** More paths its tools must not see (AGENT_TOKEN_FILE). */
    hide?: string[];
    sandbox: SandboxMode;
    /** Measure the machine's capacity (AGENT_CALIBRATION); only while idle, and a run cancels it (calibration-scheduler.ts). */
    calibration: boolean;
    logger: Logger;
    onToolReport?: (report: readonly ToolReport[]) => void;
    /** The operator's plugin settings (the config's), so its tools run what the service's are configured with. */
    pluginSources?: PluginSources;
  },
) {
  const identity = openAgentState(join(options.dataDir, 'local-agent'));
  try {
    // The same load tools as the service: the built-in ones and those LOADPLANE_PLUGINS added, with the same settings.
    const plugins = loadToolPluginsOf(service);
    // Silent: the service checked and warned about these very settings already; the server-only ones would be noise here.
    const pluginConfig = operatorPluginConfig('agent', plugins, options.pluginSources ?? noPluginSources, silentLogger).slices();
    const agent = await startNodeAgent({
      serverUrl: options.serverUrl,
      token: await provisionLocalAgentToken(service.database, service.bootstrapWorkspaceId),
      logger: options.logger,
      plugins,
      pluginConfig,
      system: { name: 'local agent' },
      // Its tools run beside the service: they must not read its data (keys, secrets, the database files).
      sandbox: options.sandbox,
      hide: [options.dataDir, ...(options.hide ?? [])],
      identity,
      onToolReport: options.onToolReport,
      // The same calibration as any agent, on the same terms: it starts only while nothing runs, and an assignment kills
      // its engine at once (no grace) before the run's own starts. A first run right after `npm start` therefore never
      // waits for the calibration's seconds; at worst it shares the cores with a dying process for a moment.
      ...(options.calibration ? {} : { calibration: false as const }),
    });
    return {
      ...agent,
      async shutdown() {
        await agent.shutdown();
        identity.release();
      },
    };
  } catch (error) {
    identity.release();
    throw error;
  }
}
