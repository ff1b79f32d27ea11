/** Records API-token use off the hot path: marks collect in memory and are written in one batch every few minutes. */
import { ApiToken } from '../domain/entities/api-token.ts';
import type { Database } from '../ports/database.ts';

export interface LastUsedRecorder {
  touch(tokenId: string): void;
  /** Writes what was collected; called by the timer and at stop. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function createLastUsedRecorder(db: Database, intervalMillis = 120_000): LastUsedRecorder {
  let pending = new Map<string, Date>();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const em = db.fork();
    // One statement per distinct timestamp would be overkill: every token of the batch gets its own latest use.
    for (const [id, usedAt] of batch) {
      await em.nativeUpdate(ApiToken, { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: usedAt } }] }, { lastUsedAt: usedAt });
    }
  };
  const timer = setInterval(() => void flush().catch(() => {}), intervalMillis);
  // Never keep the process alive just for this.
  (timer as { unref?: () => void }).unref?.();
  return {
    touch(tokenId) {
      pending.set(tokenId, new Date());
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
