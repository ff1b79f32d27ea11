/** The pubsub port: short wake-up messages between the service's replicas (PostgreSQL LISTEN/NOTIFY, or memory in one process). */
import { defineCapability } from '../kernel/define-capability.ts';

export interface PubSub {
  /** Sends to the OTHER replicas (this one acts directly); small payloads only (< 8 KB). Lost messages are possible: receivers also poll. */
  publish(topic: string, payload: string): Promise<void>;
  subscribe(topic: string, handler: (payload: string) => void): () => void;
  /** Called after the listening connection came back: messages may have been missed, so receivers re-read what they follow. */
  onResync(handler: () => void): () => void;
  /** Whether other replicas may exist (false for the embedded single-process mode). */
  readonly shared: boolean;
}

export const pubSubPort = defineCapability<PubSub>({ id: 'port.pubsub', cardinality: 'one' });

/** One process: nobody else to tell. */
export function createLocalPubSub(): PubSub {
  return {
    shared: false,
    publish: async () => {},
    subscribe: () => () => {},
    onResync: () => () => {},
  };
}
