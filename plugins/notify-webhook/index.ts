/**
 * The `notify-webhook` plugin: a notification channel that delivers the spec's webhook events. It reads the run
 * outbox under its own cursor and sends with retries; the core's outbox dispatcher wakes it after each run transition
 * and each hand-queued delivery (so the first attempt normally leaves within a second), and its own collector job on
 * the job queue (every 20 s, any replica) sends the retries that come due. API-only replicas (WORKERS=false) run none
 * of it: the dispatcher passes their wake-ups on. Every replica serves the webhook settings (GET/POST /api/v1/webhooks
 * and below: create, rotate, test, deliveries, redeliver) through the host's API routes.
 */
import { Type } from '@sinclair/typebox';
import {
  apiRoutesCapability,
  channelWakeUpPort,
  createOutboundUrlGuard,
  databasePort,
  definePlugin,
  dnsResolverPort,
  jobQueuePort,
  notificationChannelCapability,
  outboxFeedPort,
  parseAllowList,
  pubSubPort,
  secretBoxPort,
  serviceGaugesCapability,
  webhookTransportPort,
  workspaceAuditLogPort,
} from 'loadplane/plugin';
import { deliveryGauges } from './delivery-gauges.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { NotifyWebhook0001WebhookTables } from './migrations/0001-webhook-tables.ts';
import { webhookConsumer } from './outbox-fanout.ts';
import { createWebhookService } from './webhook-admin.ts';
import { webhookRoutes } from './webhook-routes.ts';

export const collectJob = 'webhooks:collect';

const configSchema = Type.Object({
  publicUrl: Type.String(),
  workers: Type.Boolean({ default: true }),
  allowHosts: Type.Array(Type.String(), { default: [] }),
  /** The spec's outbox poll interval. */
  collectEveryMillis: Type.Integer({ minimum: 100, default: 20_000 }),
});

export default definePlugin({
  name: 'notify-webhook',
  migrations: [NotifyWebhook0001WebhookTables],
  configSchema,
  setup(ctx) {
    // WEBHOOK_ALLOW_HOSTS decides which targets may be saved and which may be called, alike.
    const guard = createOutboundUrlGuard({ resolver: ctx.use(dnsResolverPort), allow: parseAllowList(ctx.config.allowHosts) });
    // Every replica serves the webhook settings; a test ping or redelivery wakes the channels wherever they run.
    const channels = ctx.use(channelWakeUpPort);
    const webhooks = createWebhookService({
      db: ctx.use(databasePort),
      guard,
      secrets: ctx.use(secretBoxPort),
      audit: ctx.use(workspaceAuditLogPort),
      queued: () => channels.queued(),
    });
    ctx.provide(apiRoutesCapability, webhookRoutes(webhooks));
    ctx.provide(serviceGaugesCapability, deliveryGauges(ctx.use(databasePort)));

    if (!ctx.config.workers) return;
    const pubsub = ctx.use(pubSubPort);
    const worker = createDeliveryWorker({
      db: ctx.use(databasePort),
      outbox: ctx.use(outboxFeedPort),
      guard,
      transport: ctx.use(webhookTransportPort),
      secrets: ctx.use(secretBoxPort),
      publicUrl: ctx.config.publicUrl,
      logger: ctx.logger,
    });
    // One process on its own database (embedded): any lease found at start was left by this service's previous life,
    // killed mid-attempt; free those before the dispatcher's first wake-up sends them again.
    const ready = pubsub.shared
      ? Promise.resolve()
      : worker
          .releaseStaleLeases()
          .then((freed) => {
            if (freed > 0) ctx.logger.info('webhook deliveries interrupted by a restart are sent again', { deliveries: freed });
          })
          .catch((error) => ctx.logger.error('the webhook worker could not free stale leases', { error: String(error) }));
    const wake = () => ready.then(() => worker.wake());
    ctx.provide(notificationChannelCapability, { name: webhookConsumer, wake });
    const queue = ctx.use(jobQueuePort);
    queue.define(collectJob, wake);
    queue.every(collectJob, ctx.config.collectEveryMillis).catch((error) =>
      ctx.logger.error('the webhook collector could not be scheduled', { error: String(error) }),
    );
    ctx.onStop(() => worker.stop());
  },
});
