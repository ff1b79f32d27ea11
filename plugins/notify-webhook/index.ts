/**
 * The `notify-webhook` plugin: the consumer of the run lifecycle's outbox that delivers the spec's webhook events.
 * A collector job on the job queue (every 20 s, any replica) plus an immediate wake-up after each run transition and
 * each hand-queued delivery, so the first attempt normally leaves within a second. Replicas with WORKERS=false only
 * pass the wake-up on to the others.
 */
import { Type } from '@sinclair/typebox';
import {
  createDeliveryWorker,
  createOutboundUrlGuard,
  databasePort,
  definePlugin,
  dnsResolverPort,
  jobQueuePort,
  parseAllowList,
  pubSubPort,
  secretBoxPort,
  webhookTransportPort,
} from 'loadplane/plugin';

export const collectJob = 'webhooks:collect';
export const wakeTopic = 'webhooks.wake';

const configSchema = Type.Object({
  publicUrl: Type.String(),
  workers: Type.Boolean({ default: true }),
  allowHosts: Type.Array(Type.String(), { default: [] }),
  /** The spec's outbox poll interval. */
  collectEveryMillis: Type.Integer({ minimum: 100, default: 20_000 }),
});

export default definePlugin({
  name: 'notify-webhook',
  configSchema,
  setup(ctx) {
    const pubsub = ctx.use(pubSubPort);
    const hooks = ctx.hooks;
    if (!ctx.config.workers) {
      // An API-only replica: whoever runs workers delivers; tell them now rather than at their next poll.
      const tell = () => void pubsub.publish(wakeTopic, '').catch(() => {});
      hooks.hook('run:started', tell);
      hooks.hook('run:finished', tell);
      hooks.hook('webhook:queued', tell);
      return;
    }
    const worker = createDeliveryWorker({
      db: ctx.use(databasePort),
      guard: createOutboundUrlGuard({ resolver: ctx.use(dnsResolverPort), allow: parseAllowList(ctx.config.allowHosts) }),
      transport: ctx.use(webhookTransportPort),
      secrets: ctx.use(secretBoxPort),
      publicUrl: ctx.config.publicUrl,
      logger: ctx.logger,
    });
    // At start: catch up with whatever waited while the service was down. One process on its own database
    // (embedded): any lease found was left by this service's previous life, killed mid-attempt; send those now.
    void (async () => {
      if (!pubsub.shared) {
        const freed = await worker.releaseStaleLeases();
        if (freed > 0) ctx.logger.info('webhook deliveries interrupted by a restart are sent again', { deliveries: freed });
      }
      await worker.wake();
    })().catch((error) => ctx.logger.error('the webhook worker could not catch up at start', { error: String(error) }));
    const queue = ctx.use(jobQueuePort);
    queue.define(collectJob, () => worker.wake());
    queue.every(collectJob, ctx.config.collectEveryMillis).catch((error) =>
      ctx.logger.error('the webhook collector could not be scheduled', { error: String(error) }),
    );
    const wake = () => void worker.wake();
    hooks.hook('run:started', wake);
    hooks.hook('run:finished', wake);
    hooks.hook('webhook:queued', wake);
    const unsubscribe = pubsub.subscribe(wakeTopic, wake);
    // After a lost listening connection, wake-ups may have been missed.
    const unresync = pubsub.onResync(wake);
    ctx.onStop(async () => {
      unsubscribe();
      unresync();
      await worker.stop();
    });
  },
});
