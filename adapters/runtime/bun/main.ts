/** The Bun entry: the only reader of process.env; boots the service and serves it until SIGINT/SIGTERM. */
import { mkdir } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../../../config/load-config.ts';
import { bootService } from '../../../core/boot-service.ts';
import { createConsoleLogger } from '../../../core/kernel/console-logger.ts';
import { KernelBootError } from '../../../core/kernel/errors.ts';
import { databaseForConfig } from '../../db/database-for-config.ts';
import { changeFeedForConfig } from '../../pubsub/change-feed-for-config.ts';
import { createDiskDataFiles } from '../../files/disk-data-files.ts';
import { createPackageStaticAssets } from '../../files/package-static-assets.ts';

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
  const logger = createConsoleLogger(config.logLevel as 'info');
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });

  const service = await bootService({
    config,
    logger,
    dataFiles: createDiskDataFiles(config.dataDir),
    assets: createPackageStaticAssets(),
    openDatabase: databaseForConfig(config),
    changeFeed: changeFeedForConfig(config, logger),
    fetch: (request) => fetch(request),
  });

  service.app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.maxBodyBytes });
  const port = service.app.server?.port ?? config.port;
  logger.info('loadplane is listening', {
    url: `http://${config.host}:${port}`,
    public_url: config.publicUrl,
    database: service.database.kind,
    auth_url: service.authUrl,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    await service.app.stop();
    await service.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  const message = error instanceof KernelBootError ? error.message : (error?.stack ?? String(error));
  console.error(`loadplane: failed to start: ${message}`);
  process.exit(1);
});
