/** Wakes the notification channels for work queued outside a run transition (a webhook's test ping, a redelivery). */
import { defineCapability } from '../kernel/define-capability.ts';

export interface ChannelWakeUp {
  /**
   * The channels look at their work now, on whichever replica runs them (an API-only replica passes this on). Call it
   * after the transaction that queued the work committed.
   */
  queued(): void;
}

export const channelWakeUpPort = defineCapability<ChannelWakeUp>({ id: 'port.channelWakeUp', cardinality: 'one' });
