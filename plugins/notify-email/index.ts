/**
 * The `notify-email` plugin: members who opt in get an e-mail when a run fails (and, if they ask, when one completes),
 * built from the run outbox like webhooks, so just as durable. Sends through nodemailer to SMTP_URL; without it the
 * worker only marks the outbox rows as seen (nobody is mailed later about runs from before SMTP_URL was set).
 */
import { Type } from '@sinclair/typebox';
import nodemailer from 'nodemailer';
import { databasePort, definePlugin, jobQueuePort, pubSubPort } from 'loadplane/plugin';
import { createEmailWorker } from './email-worker.ts';
import { NotifyEmail0001EmailNotifications } from './migrations/0001-email-notifications.ts';

export const emailCollectJob = 'email:collect';
const wakeTopic = 'email.wake';

export default definePlugin({
  name: 'notify-email',
  migrations: [NotifyEmail0001EmailNotifications],
  configSchema: Type.Object({
    smtpUrl: Type.Optional(Type.String()),
    from: Type.String({ default: 'Loadplane <loadplane@localhost>' }),
    publicUrl: Type.String(),
    workers: Type.Boolean({ default: true }),
    collectEveryMillis: Type.Integer({ minimum: 100, default: 20_000 }),
  }),
  setup(ctx) {
    const pubsub = ctx.use(pubSubPort);
    if (!ctx.config.workers) {
      ctx.hooks.hook('run:finished', () => void pubsub.publish(wakeTopic, '').catch(() => {}));
      return;
    }
    const transport = ctx.config.smtpUrl ? nodemailer.createTransport(ctx.config.smtpUrl) : null;
    const worker = createEmailWorker({
      db: ctx.use(databasePort),
      send: transport
        ? async (message) => {
            await transport.sendMail({ from: ctx.config.from, ...message });
          }
        : null,
      publicUrl: ctx.config.publicUrl,
      logger: ctx.logger,
    });
    const queue = ctx.use(jobQueuePort);
    queue.define(emailCollectJob, () => worker.wake());
    queue.every(emailCollectJob, ctx.config.collectEveryMillis).catch((error) =>
      ctx.logger.error('the e-mail collector could not be scheduled', { error: String(error) }),
    );
    const wake = () => void worker.wake();
    ctx.hooks.hook('run:finished', wake);
    const unsubscribe = pubsub.subscribe(wakeTopic, wake);
    ctx.onStop(async () => {
      unsubscribe();
      await worker.stop();
      transport?.close();
    });
  },
});
