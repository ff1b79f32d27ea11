/** ChangeFeed over PostgreSQL LISTEN/NOTIFY: every replica on one database hears revocations and role changes within milliseconds. */
import pg from 'pg';
import type { AccessChange, ChangeFeed } from '../../core/ports/change-feed.ts';
import { createMemoryChangeFeed } from '../../core/ports/change-feed.ts';
import type { Logger } from '../../core/kernel/logger.ts';

const channel = 'loadplane_access_changes';

export async function createPostgresChangeFeed(
  databaseUrl: string,
  logger: Logger,
): Promise<ChangeFeed & { close(): Promise<void> }> {
  const local = createMemoryChangeFeed();
  const origin = crypto.randomUUID();
  let closed = false;
  let listener: pg.Client | null = null;
  let publisher: pg.Client | null = null;

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
    client.on('error', (error) => {
      logger.error('access-change listener lost its connection; reconnecting', { error: String(error) });
      listener = null;
      if (!closed) setTimeout(() => void connectListener().catch(() => {}), 1000);
    });
    await client.connect();
    await client.query(`listen ${channel}`);
    listener = client;
  };
  await connectListener();

  return {
    async publish(change) {
      local.deliver(change);
      publisher ??= await (async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        client.on('error', () => (publisher = null));
        await client.connect();
        return client;
      })();
      await publisher.query('select pg_notify($1, $2)', [channel, JSON.stringify({ from: origin, change })]);
    },
    subscribe: (handler) => local.subscribe(handler),
    async close() {
      closed = true;
      await Promise.allSettled([listener?.end(), publisher?.end()]);
    },
  };
}
