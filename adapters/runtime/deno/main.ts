/** The Deno entry: proves the core is runtime-agnostic by booting the same service under Deno.serve. */
import { ConfigError, loadConfig } from '../../../config/load-config.ts';
import { composeService } from '../../composition/compose-service.ts';
import { rememberPeerAddress } from '../../../core/http/client-address.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { databaseForConfig } from '../../db/database-for-config.ts';
import { changeFeedForConfig, pubSubForConfig } from '../../pubsub/change-feed-for-config.ts';
import { createDiskDataFiles } from '../../files/disk-data-files.ts';
import { provideAgentTokenFile } from '../../files/agent-token-file.ts';
import { createPackageStaticAssets } from '../../files/package-static-assets.ts';
import { createNodeDnsResolver } from '../../net/node-dns-resolver.ts';
import { createNodeWebhookTransport } from '../../net/node-webhook-transport.ts';
import { createPinnedFetch } from '../../net/pinned-fetch.ts';
import { createIsomorphicGitFetcher } from '../../git/isomorphic-git-fetcher.ts';
import { createSdkRemoteMcpClient } from '../../mcp/remote-mcp-client.ts';
import { jobQueueForConfig } from '../../queue/job-queue-for-config.ts';

// Typed loosely so the Bun type-check needs no Deno declarations.
declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
  addSignalListener(signal: string, handler: () => void): void;
  mkdir(path: string, options: { recursive: boolean }): Promise<void>;
  exit(code: number): never;
};

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`loadplane: configuration error: ${error.message}`);
    Deno.exit(2);
  }
  throw error;
}
const logger = createConsoleLogger(config.logLevel as 'info', { runtime: 'deno' });
await Deno.mkdir(config.dataDir, { recursive: true });
const service = await composeService({
  config,
  logger,
  dataFiles: createDiskDataFiles(config.dataDir),
  assets: createPackageStaticAssets(),
  openDatabase: databaseForConfig(config),
  changeFeed: changeFeedForConfig(config, logger),
  pubsub: pubSubForConfig(config, logger),
  fetch: (request) => fetch(request),
  // Deno's node compatibility runs node:dns, node:http(s) and Agenda's pg client.
  dnsResolver: createNodeDnsResolver(),
  webhookTransport: createNodeWebhookTransport(),
  pinnedFetch: createPinnedFetch,
  gitFetcher: createIsomorphicGitFetcher(),
  remoteMcpClient: createSdkRemoteMcpClient(),
  jobQueue: jobQueueForConfig(config, logger),
});
// Before the first request, as under Bun: whoever waits for /healthz finds the agent's token there.
if (config.agentTokenFile) await provideAgentTokenFile(service, config.agentTokenFile, logger);
// Deno.serve has no body limit of its own: the app enforces MAX_BODY_BYTES with a JSON 413 (core/http/create-app.ts).
const server = Deno.serve(
  {
    port: config.port,
    hostname: config.host,
    onListen: ({ port }) => logger.info('loadplane is listening', { url: `http://${config.host}:${port}` }),
  },
  // Deno hands the peer to the handler, not to Elysia's `server.requestIP`: noted here for the per-address limits.
  (request, info) => {
    rememberPeerAddress(request, info.remoteAddr.hostname);
    return service.app.fetch(request);
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  Deno.addSignalListener(signal, async () => {
    await server.shutdown();
    await service.stop();
    Deno.exit(0);
  });
}
