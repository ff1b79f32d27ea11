/** PubSub over PostgreSQL LISTEN/NOTIFY: one listening connection per replica, re-established (with a resync) when it drops. */
import pg from 'pg';
import type { Logger } from '../../core/kernel/logger.ts';
import type { PubSub } from '../../core/ports/pubsub.ts';

const channelOf = (topic: string) => `loadplane_${topic.replace(/[^a-z0-9_]/gi, '_')}`;

export async function createPostgresPubSub(databaseUrl: string, logger: Logger): Promise<PubSub & { close(): Promise<void> }> {
  // Our own messages come back to us too; the origin lets us skip them (this replica acted directly).
  const origin = crypto.randomUUID().slice(0, 8);
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const resyncs = new Set<() => void>();
  let closed = false;
  let listener: pg.Client | null = null;
  let publisher: Promise<pg.Client> | null = null;
  let sending: Promise<void> = Promise.resolve();
  let listening: Promise<void> = Promise.resolve();

  const connectListener = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (payload.startsWith(`${origin}|`)) return;
      const body = payload.slice(payload.indexOf('|') + 1);
      for (const [topic, set] of handlers) if (channelOf(topic) === message.channel) for (const handler of set) handler(body);
    });
    const retry = (error: unknown) => {
      if (listener === client) listener = null;
      if (closed) return;
      logger.warn('pubsub listener lost its connection; reconnecting', { error: String(error) });
      setTimeout(() => void reconnect(), 500);
    };
    client.on('error', retry);
    client.on('end', () => retry('connection ended'));
    await client.connect();
    for (const topic of handlers.keys()) await client.query(`listen ${channelOf(topic)}`);
    listener = client;
  };
  const reconnect = async () => {
    try {
      await connectListener();
      // Whatever was sent while we were away is lost: everyone re-reads what they follow.
      for (const handler of resyncs) handler();
    } catch (error) {
      if (!closed) setTimeout(() => void reconnect(), 1000);
      logger.warn('pubsub reconnect failed', { error: String(error) });
    }
  };
  await connectListener();

  const publisherClient = () =>
    (publisher ??= (async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on('error', () => (publisher = null));
      client.on('end', () => (publisher = null));
      await client.connect();
      return client;
    })().catch((error) => {
      publisher = null;
      throw error;
    }));

  return {
    shared: true,
    publish(topic, payload) {
      if (closed) return Promise.resolve();
      // One query at a time on the publishing connection (pg refuses overlapping queries on one client from v9).
      sending = sending.then(async () => {
        try {
          await (await publisherClient()).query('select pg_notify($1, $2)', [channelOf(topic), `${origin}|${payload}`]);
        } catch (error) {
          // Receivers poll as well: a lost wake-up only delays them.
          logger.warn('pubsub publish failed', { topic, error: String(error) });
        }
      });
      return sending;
    },
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        handlers.set(topic, (set = new Set()));
        const channel = channelOf(topic);
        listening = listening.then(() => listener?.query(`listen ${channel}`)).then(
          () => {},
          () => {},
        );
      }
      set.add(handler);
      return () => set.delete(handler);
    },
    onResync(handler) {
      resyncs.add(handler);
      return () => resyncs.delete(handler);
    },
    async close() {
      closed = true;
      const client = listener;
      listener = null;
      await Promise.allSettled([client?.end(), publisher?.then((c) => c.end())]);
    },
  };
}
