/**
 * The `notify-email` plugin: a notification channel. Members who opt in get an e-mail when a run fails (and, if they
 * ask, when one completes), built from the run outbox under this channel's own cursor, so just as durable as webhooks.
 * Sends through nodemailer to SMTP_URL; without it the cursor only moves past the run events (nobody is mailed later
 * about runs from before SMTP_URL was set). The core's outbox dispatcher wakes it; its job sends retries as they come due.
 * Members set their opt-ins through its REST resource, GET and PUT /api/v1/notification-preferences.
 */
import { Type } from '@sinclair/typebox';
import nodemailer from 'nodemailer';
import { apiRoutesCapability, databasePort, definePlugin, jobQueuePort, notificationChannelCapability, outboxFeedPort, workspaceDirectoryPort } from 'loadplane/plugin';
import { createEmailWorker, emailConsumer } from './email-worker.ts';
import { preferenceRoutes } from './preference-routes.ts';
import { NotifyEmail0001EmailNotifications } from './migrations/0001-email-notifications.ts';
import { NotifyEmail0002NotificationPreferences } from './migrations/0002-notification-preferences.ts';

export const emailCollectJob = 'email:collect';

export default definePlugin({
  name: 'notify-email',
  migrations: [NotifyEmail0001EmailNotifications, NotifyEmail0002NotificationPreferences],
  configSchema: Type.Object({
    smtpUrl: Type.Optional(Type.String()),
    from: Type.String({ default: 'Loadplane <loadplane@localhost>' }),
    publicUrl: Type.String(),
    workers: Type.Boolean({ default: true }),
    collectEveryMillis: Type.Integer({ minimum: 100, default: 20_000 }),
  }),
  setup(ctx) {
    // Every replica serves the members' opt-ins, workers or not.
    ctx.provide(apiRoutesCapability, preferenceRoutes(ctx.use(databasePort)));
    // An API-only replica (WORKERS=false) sends nothing; the dispatcher passes its wake-ups on to the others.
    if (!ctx.config.workers) return;
    const transport = ctx.config.smtpUrl ? nodemailer.createTransport(ctx.config.smtpUrl) : null;
    const worker = createEmailWorker({
      db: ctx.use(databasePort),
      outbox: ctx.use(outboxFeedPort),
      directory: ctx.use(workspaceDirectoryPort),
      send: transport
        ? async (message) => {
            await transport.sendMail({ from: ctx.config.from, ...message });
          }
        : null,
      publicUrl: ctx.config.publicUrl,
      logger: ctx.logger,
    });
    ctx.provide(notificationChannelCapability, { name: emailConsumer, wake: () => worker.wake() });
    const queue = ctx.use(jobQueuePort);
    queue.define(emailCollectJob, () => worker.wake());
    queue.every(emailCollectJob, ctx.config.collectEveryMillis).catch((error) =>
      ctx.logger.error('the e-mail collector could not be scheduled', { error: String(error) }),
    );
    ctx.onStop(async () => {
      await worker.stop();
      transport?.close();
    });
  },
});
