/** The change-feed port: tells every process of the service that cached access data changed (token revoked, role changed). */
import { defineCapability } from '../kernel/define-capability.ts';

export type AccessChange =
  | { kind: 'token'; secretHash: string }
  | { kind: 'user'; userId: string }
  | { kind: 'workspace'; workspaceId: string }
  /** Notices may have been missed (the listening connection dropped and came back): drop every cached access datum. */
  | { kind: 'all' };

export interface ChangeFeed {
  /** Delivers to this process's subscribers at once, and to the other processes' as soon as they hear. */
  publish(change: AccessChange): Promise<void>;
  subscribe(handler: (change: AccessChange) => void): () => void;
}

export const changeFeedPort = defineCapability<ChangeFeed>({ id: 'port.changeFeed', cardinality: 'one' });

/** One process: subscribers are called synchronously on publish. */
export function createMemoryChangeFeed(): ChangeFeed & { deliver(change: AccessChange): void } {
  const handlers = new Set<(change: AccessChange) => void>();
  const deliver = (change: AccessChange) => {
    for (const handler of handlers) handler(change);
  };
  return {
    deliver,
    async publish(change) {
      deliver(change);
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
  };
}
