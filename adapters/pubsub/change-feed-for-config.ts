/** Picks the change feed and the pubsub for a config: LISTEN/NOTIFY with a PostgreSQL server (replicas share it), in-memory with embedded PGlite (one process). */
import type { Config } from '../../config/schema.ts';
import type { BootOptions } from '../../core/boot-service.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { createPostgresChangeFeed } from './postgres-change-feed.ts';
import { createPostgresPubSub } from './postgres-pubsub.ts';

export function changeFeedForConfig(config: Readonly<Config>, logger: Logger): BootOptions['changeFeed'] {
  const url = config.databaseUrl;
  return url ? () => createPostgresChangeFeed(url, logger) : undefined;
}

export function pubSubForConfig(config: Readonly<Config>, logger: Logger): BootOptions['pubsub'] {
  const url = config.databaseUrl;
  return url ? () => createPostgresPubSub(url, logger) : undefined;
}
