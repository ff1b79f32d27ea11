/**
 * The outbox dispatcher: the one place that knows when the outbox has news and tells every notification channel.
 * Each channel reads under its own cursor at its own pace (a slow or failing one holds up nobody); the dispatcher only
 * registers their cursors at boot and wakes them: after a run transition on this replica, when another replica says so
 * (API-only replicas pass every wake-up on), after a lost pubsub connection, for work queued by hand, and at start.
 */
import type { NotificationChannel } from '../../capabilities/notification-channel.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { OutboxFeed } from '../../ports/outbox-feed.ts';
import type { PubSub } from '../../ports/pubsub.ts';

/** The pubsub topic that wakes the channels of the replicas that run workers. */
export const outboxWakeTopic = 'outbox.wake';

export interface OutboxDispatcher {
  /** Work was queued outside a run transition (a webhook test ping, a redelivery): the channels should look now. */
  queued(): void;
  stop(): void;
}

export async function createOutboxDispatcher(deps: {
  channels: readonly NotificationChannel[];
  feed: OutboxFeed;
  hooks: HookBus<KernelHooks>;
  pubsub: PubSub;
  /** False on an API-only replica (WORKERS=false): it sends nothing itself and tells the others instead. */
  workers: boolean;
  logger: Logger;
}): Promise<OutboxDispatcher> {
  const { channels, pubsub, logger } = deps;
  const tell = () => void pubsub.publish(outboxWakeTopic, '').catch((error) => logger.warn('could not wake the notification channels', { error: String(error) }));
  const wakeAll = () => {
    for (const channel of channels) {
      channel.wake().catch((error) => logger.error('a notification channel failed', { channel: channel.name, error: String(error) }));
    }
  };
  const wake = deps.workers ? wakeAll : tell;
  // Before anything can run: a channel's first event must fall after its cursor, not before it.
  for (const channel of channels) await deps.feed.register(channel.name);

  const unhooks = [deps.hooks.hook('run:started', wake), deps.hooks.hook('run:finished', wake)];
  if (deps.workers) {
    unhooks.push(pubsub.subscribe(outboxWakeTopic, wakeAll), pubsub.onResync(wakeAll));
    // Catch up with whatever waited while the service was down.
    wakeAll();
  }
  return {
    queued: wake,
    stop() {
      for (const unhook of unhooks) unhook();
    },
  };
}
