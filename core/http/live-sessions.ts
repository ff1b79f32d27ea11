/**
 * Open task streams and agent sockets of this replica, re-authorised whenever access data changes (the change feed
 * carries revocations, rotations and membership changes from every replica), so a revoked token or a removed member
 * is cut off within moments instead of keeping a stream open for as long as the run lasts.
 */
import { coalescingPass } from '../kernel/coalescing-pass.ts';

export interface LiveSession {
  /** Whether the caller may still hold this stream or socket (authenticates its credentials again). */
  stillAllowed(): Promise<boolean>;
  close(): void;
}

export interface LiveSessions {
  /** Registers a session; the returned function forgets it (call it when the session ends). */
  add(session: LiveSession): () => void;
  /** Re-checks every session (coalesced: a burst of changes costs one pass). */
  recheckAll(): Promise<void>;
  size(): number;
}

export function createLiveSessions(onError: (error: unknown) => void): LiveSessions {
  const sessions = new Set<LiveSession>();

  async function checkAll() {
    for (const session of [...sessions]) {
      let allowed = false;
      try {
        allowed = await session.stillAllowed();
      } catch (error) {
        onError(error);
      }
      if (!allowed && sessions.delete(session)) session.close();
    }
  }
  const recheckAll = coalescingPass(checkAll, { onError });

  return {
    add(session) {
      sessions.add(session);
      return () => void sessions.delete(session);
    },
    recheckAll,
    size: () => sessions.size,
  };
}
