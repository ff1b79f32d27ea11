/** The Bun entry: the only reader of process.env; boots the service and serves it until SIGINT/SIGTERM. */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../config/load-config.ts';
import { composeService } from '../../composition/compose-service.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { KernelBootError } from '../../../core/kernel/errors.ts';
import { AgentStateError } from '../../agent/agent-state.ts';
import { startLocalAgent } from './local-agent.ts';
import { startupBanner } from './startup-banner.ts';
import { buildUiAtStart } from './ui-build-at-start.ts';
import { formatToolReport, type ToolReport } from '../../agent/start-node-agent.ts';
import { databaseForConfig } from '../../db/database-for-config.ts';
import { DatabaseInUseError } from '../../db/pglite-lock.ts';
import { changeFeedForConfig, pubSubForConfig } from '../../pubsub/change-feed-for-config.ts';
import { createDiskDataFiles } from '../../files/disk-data-files.ts';
import { provideAgentTokenFile } from '../../files/agent-token-file.ts';
import { createPackageStaticAssets } from '../../files/package-static-assets.ts';
import { jobQueueForConfig } from '../../queue/job-queue-for-config.ts';
import { createNodeDnsResolver } from '../../net/node-dns-resolver.ts';
import { createNodeWebhookTransport } from '../../net/node-webhook-transport.ts';
import { createPinnedFetch } from '../../net/pinned-fetch.ts';
import { createIsomorphicGitFetcher } from '../../git/isomorphic-git-fetcher.ts';
import { createSdkRemoteMcpClient } from '../../mcp/remote-mcp-client.ts';

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`loadplane: configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  // Readable lines for a person at a terminal, JSON lines for a collector (LOG_FORMAT decides when set).
  const pretty = (config.logFormat ?? (process.stderr.isTTY ? 'pretty' : 'json')) === 'pretty';
  const logger = createConsoleLogger(config.logLevel as 'info', {}, pretty ? 'pretty' : 'json');
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  // The first start creates the embedded database and runs every migration: say so instead of seconds of silence.
  logger.info('starting', { data_dir: config.dataDir, database: config.databaseUrl ? 'postgresql' : 'pglite (embedded)' });
  // Before boot, so the first request to / finds the current UI (after a `git pull`, say, without `npm ci`).
  if (config.uiEnabled) await buildUiAtStart(logger);

  const service = await composeService({
    config,
    logger,
    dataFiles: createDiskDataFiles(config.dataDir),
    assets: createPackageStaticAssets(),
    openDatabase: databaseForConfig(config),
    changeFeed: changeFeedForConfig(config, logger),
    pubsub: pubSubForConfig(config, logger),
    fetch: (request) => fetch(request),
    dnsResolver: createNodeDnsResolver(),
    webhookTransport: createNodeWebhookTransport(),
    pinnedFetch: createPinnedFetch,
    gitFetcher: createIsomorphicGitFetcher(),
    remoteMcpClient: createSdkRemoteMcpClient(),
    jobQueue: jobQueueForConfig(config, logger),
  });

  // Before the first request: whoever waits for /healthz (compose's agent) finds the token there.
  if (config.agentTokenFile) await provideAgentTokenFile(service, config.agentTokenFile, logger);

  // idleTimeout: streams send keep-alives well inside it; Bun's default of 10 s is too short for slow clients.
  // maxRequestBodySize: the app enforces MAX_BODY_BYTES itself and answers the spec's JSON 413 (core/http/create-app.ts);
  // Bun's own limit would answer first, with an empty 413, so it is set out of the way. Bun reads no body on its own.
  service.app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: Number.MAX_SAFE_INTEGER, idleTimeout: 120 });
  const port = service.app.server?.port ?? config.port;
  logger.info('loadplane is listening', {
    url: `http://${config.host}:${port}`,
    public_url: config.publicUrl,
    database: service.database.kind,
    auth_url: service.authUrl,
  });

  // The embedded default: one agent in this process, over loopback, through the real agent path.
  let tools: readonly ToolReport[] | null = null;
  const localAgentStart = config.localAgent
    ? startLocalAgent(service, {
        serverUrl: `http://${['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host}:${port}`,
        dataDir: config.dataDir,
        hide: config.agentTokenFile ? [config.agentTokenFile] : [],
        sandbox: config.agentSandbox,
        calibration: config.agentCalibration,
        logger: logger.child({ component: 'local-agent' }),
        onToolReport: (report) => (tools ??= report),
        pluginSources: config.pluginSources,
      })
    : Promise.resolve(null);

  // Handled from here on, not after the local agent's start: /healthz answers already, and the agent's first check of
  // its tools (engines' version commands, Java ones slow on a busy machine) can take seconds. A SIGTERM in that time
  // used to end the process by the signal's default, with no orderly stop (a test's stop() saw no exit code).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    // A start still checking its tools finishes first (its checks are short-lived, bounded children), then stops.
    await (await localAgentStart.catch(() => null))?.shutdown();
    // Streams and agent sockets never end by themselves: close them instead of waiting forever.
    service.runs.connections.closeAll(1001, 'server restarting');
    await service.app.stop(true);
    // Each stage named as it starts: a stop that hangs says where.
    await service.stop((stage) => logger.info('stopping', { stage }));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await localAgentStart;
  // For a person at a terminal (never between a collector's JSON lines): where it is, how to sign in, what can run.
  if (pretty && !stopping) {
    const passwordFile = join(config.dataDir, 'initial-admin-password');
    console.error(
      startupBanner({
        publicUrl: config.publicUrl,
        passwordFile: existsSync(passwordFile) ? passwordFile : null,
        toolReport: tools ? formatToolReport(tools) : null,
      }),
    );
  }
}

main().catch((error) => {
  const known = error instanceof KernelBootError || error instanceof AgentStateError || error instanceof DatabaseInUseError;
  const message = known ? error.message : (error?.stack ?? String(error));
  console.error(`loadplane: failed to start: ${message}`);
  process.exit(1);
});
