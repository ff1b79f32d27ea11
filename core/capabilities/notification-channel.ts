/**
 * The notification-channel capability: a plugin that turns run events into notifications (webhooks, e-mail). It reads
 * the outbox through the outbox feed port under its own cursor and sends with its own retries; the core's outbox
 * dispatcher tells it when there is something to read or send.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface NotificationChannel {
  /** Unique; also the name of its outbox cursor, which the dispatcher registers at boot so no later event is missed. */
  name: string;
  /**
   * Reads what is new after its cursor and sends what is due. Called on every wake-up (a run transition here or on
   * another replica, work queued by hand, start): it should merge calls that overlap (coalescingPass) and never reject.
   */
  wake(): Promise<void>;
}

export const notificationChannelCapability = defineCapability<NotificationChannel>({
  id: 'core.notificationChannel',
  cardinality: 'many',
  key: (channel) => channel.name,
});
