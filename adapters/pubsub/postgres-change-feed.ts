/**
 * ChangeFeed over PostgreSQL LISTEN/NOTIFY: every replica on one database hears revocations and role changes within
 * milliseconds. Notices sent while the listening connection is down are lost, so losing it and getting it back both
 * deliver `{kind: 'all'}` locally: every cache of access data empties and every live session is re-checked.
 */
import pg from 'pg';
import type { AccessChange, ChangeFeed } from '../../core/ports/change-feed.ts';
import { createMemoryChangeFeed } from '../../core/ports/change-feed.ts';
import type { Logger } from '../../core/kernel/logger.ts';

const channel = 'loadplane_access_changes';

export interface PostgresChangeFeedOptions {
  /** Waits between reconnect attempts, growing up to the last one (milliseconds). */
  retryMillis?: readonly number[];
}

export async function createPostgresChangeFeed(
  databaseUrl: string,
  logger: Logger,
  options: PostgresChangeFeedOptions = {},
): Promise<ChangeFeed & { close(): Promise<void> }> {
  const retryMillis = options.retryMillis ?? [100, 250, 500, 1000, 2000];
  const local = createMemoryChangeFeed();
  const origin = crypto.randomUUID();
  let closed = false;
  let listener: pg.Client | null = null;
  let publisher: Promise<pg.Client> | null = null;
  let sending: Promise<unknown> = Promise.resolve();
  let reconnecting = false;

  const connectListener = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      try {
        const { from, change } = JSON.parse(message.payload) as { from: string; change: AccessChange };
        // Our own notifications were delivered locally already.
        if (from !== origin) local.deliver(change);
      } catch (error) {
        logger.warn('ignored a malformed access-change notification', { error: String(error) });
      }
    });
    const onLost = (reason: unknown) => {
      // Only an established listener is lost (a failed connect throws instead); pg emits `error` and `end`: act once.
      if (listener !== client) return;
      listener = null;
      if (closed) return;
      logger.warn('access-change listener lost its connection; reconnecting', { error: String(reason) });
      // Whatever is cached from now on may miss a revocation we cannot hear: drop it now, and again once we hear again.
      local.deliver({ kind: 'all' });
      void reconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost('connection ended'));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    listener = client;
  };

  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    try {
      for (let attempt = 0; !closed; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, retryMillis[Math.min(attempt, retryMillis.length - 1)]));
        if (closed) return;
        try {
          await connectListener();
          // Closed while we were connecting: this connection must not outlive the feed.
          if (closed) {
            await listener?.end().catch(() => {});
            return;
          }
          // Notices sent while we were away are lost: everything cached in between goes.
          local.deliver({ kind: 'all' });
          logger.info('access-change listener reconnected; access caches flushed', { attempts: attempt + 1 });
          return;
        } catch (error) {
          logger.warn('access-change listener could not reconnect yet', { error: String(error), attempt: attempt + 1 });
        }
      }
    } finally {
      reconnecting = false;
    }
  };

  await connectListener();

  return {
    async publish(change) {
      local.deliver(change);
      // One notify at a time on one shared connection (pg will refuse overlapping queries on a client).
      const sent = sending.then(async () => {
        publisher ??= (async () => {
          const client = new pg.Client({ connectionString: databaseUrl });
          client.on('error', () => (publisher = null));
          client.on('end', () => (publisher = null));
          await client.connect();
          return client;
        })().catch((error) => {
          publisher = null;
          throw error;
        });
        await (await publisher).query('select pg_notify($1, $2)', [channel, JSON.stringify({ from: origin, change })]);
      });
      sending = sent.catch(() => {});
      await sent;
    },
    subscribe: (handler) => local.subscribe(handler),
    async close() {
      closed = true;
      await Promise.allSettled([listener?.end(), publisher?.then((client) => client.end())]);
    },
  };
}
