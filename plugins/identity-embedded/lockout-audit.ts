/**
 * Lockouts (and address throttles) go to the host's audit log (its instance audit log port: the first workspace, whose
 * owner administers the instance, since the realm serves all of it). Without one (the provider on its own) only the log says it.
 */
import type { InstanceAuditLog, Logger } from 'loadplane/plugin';
import type { LockSubject } from './brute-force-policy.ts';
import { loggableError } from './loggable-error.ts';

export interface LockoutEvent {
  kind: LockSubject;
  /** The locked account's user id; null for an address, or for a name that no user has. */
  userId: string | null;
  username: string | null;
  address: string | null;
  failures: number;
  /** Null for a permanent lockout; for an address, when its throttle ends. */
  lockedUntil: Date | null;
  waitSeconds: number;
  permanent: boolean;
}

/** An address is throttled, never locked: only the names that failed from it are refused while it lasts. */
export const LOCKOUT_ACTIONS = { account: 'login.account_locked', address: 'login.address_throttled' } as const;

export function createLockoutAudit(auditLog: InstanceAuditLog | null, realm: string, logger: Logger) {
  return {
    async record(event: LockoutEvent): Promise<void> {
      // Never the name as typed when no user has it: people type their password into the username field.
      logger.warn(event.kind === 'account' ? 'sign-in locked for an account' : 'sign-in throttled for a client address', {
        realm,
        user_id: event.userId,
        username: event.username,
        address: event.address,
        failures: event.failures,
        locked_until: event.lockedUntil?.toISOString() ?? null,
        permanent: event.permanent,
      });
      if (!auditLog) return;
      try {
        await auditLog.recordForInstance({
          action: LOCKOUT_ACTIONS[event.kind],
          actorLabel: 'brute-force detection',
          target: {
            type: event.kind === 'account' ? 'user' : 'client_address',
            id: event.userId,
            label: event.kind === 'account' ? (event.username ?? '(no such user)') : event.address,
          },
          details: {
            realm,
            address: event.address,
            failures: event.failures,
            locked_until: event.lockedUntil?.toISOString() ?? null,
            wait_seconds: event.waitSeconds,
            permanent: event.permanent,
          },
        });
      } catch (error) {
        // The refusal stands whatever happens here; losing the entry is logged, not turned into a 500.
        logger.error('could not write the lockout to the audit log', { error: loggableError(error) });
      }
    },
  };
}

export type LockoutAudit = ReturnType<typeof createLockoutAudit>;
