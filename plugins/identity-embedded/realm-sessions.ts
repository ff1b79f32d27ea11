/** Sign-in sessions: created by a grant, extended by refreshes, ended by logout, user deletion or expiry. */
import { IdpSession } from './entities/idp-session.ts';
import type { DatabaseLike } from './realm-users.ts';
import { isUuid } from './realm-users.ts';

export interface SessionPolicy {
  /** Each refresh keeps the session alive this much longer. */
  idleSeconds: number;
  /** Hard cap counted from sign-in. */
  maxSeconds: number;
}

/** The sweep of expired rows runs at most this often per process; expired rows are ignored anyway. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

function nextExpiry(createdAt: Date, now: Date, policy: SessionPolicy): Date {
  return new Date(Math.min(now.getTime() + policy.idleSeconds * 1000, createdAt.getTime() + policy.maxSeconds * 1000));
}

export function createSessionStore(db: DatabaseLike, realm: string, policy: SessionPolicy) {
  let lastSweep = 0;

  const sweep = async (now: Date) => {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    await db.fork().nativeDelete(IdpSession, { expiresAt: { $lt: now } });
  };

  return {
    async create(input: { userId: string; clientId: string; scope: string }): Promise<IdpSession> {
      const now = new Date();
      await sweep(now);
      const em = db.fork();
      const session = em.create(IdpSession, {
        id: crypto.randomUUID(),
        realm,
        userId: input.userId,
        clientId: input.clientId,
        scope: input.scope,
        createdAt: now,
        refreshedAt: now,
        expiresAt: nextExpiry(now, now, policy),
      });
      await em.flush();
      return session;
    },

    /** The session while it is alive; null once ended or expired. */
    async findActive(sessionId: string): Promise<IdpSession | null> {
      if (!isUuid(sessionId)) return null;
      return db.fork().findOne(IdpSession, { realm, id: sessionId.toLowerCase(), expiresAt: { $gt: new Date() } });
    },

    /** Moves the idle expiry forward; returns the session as it now is. */
    async touch(session: IdpSession): Promise<IdpSession> {
      const now = new Date();
      const em = db.fork();
      const current = await em.findOne(IdpSession, { realm, id: session.id });
      if (!current) return session;
      current.refreshedAt = now;
      current.expiresAt = nextExpiry(current.createdAt, now, policy);
      await em.flush();
      return current;
    },

    /** Ends a session; false when there was none to end. */
    async end(sessionId: string): Promise<boolean> {
      if (!isUuid(sessionId)) return false;
      return (await db.fork().nativeDelete(IdpSession, { realm, id: sessionId.toLowerCase() })) > 0;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
