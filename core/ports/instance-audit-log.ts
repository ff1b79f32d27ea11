/** The audit log as a plugin writes it: entries on the service's own behalf, never through core's tables. */
import { defineCapability } from '../kernel/define-capability.ts';

export interface SystemAuditEntry {
  /** e.g. `login.account_locked`. */
  action: string;
  /** Who acted, as the log shows it (a system part, such as "brute-force detection"). */
  actorLabel: string;
  target: { type: string; id?: string | null; label?: string | null };
  details?: Record<string, unknown>;
}

export interface InstanceAuditLog {
  /**
   * Writes an entry about the whole instance (an identity provider's lockout, say) in the first workspace, whose owner
   * administers the instance; nothing when there is none yet.
   */
  recordForInstance(entry: SystemAuditEntry): Promise<void>;
}

export const instanceAuditLogPort = defineCapability<InstanceAuditLog>({ id: 'port.instanceAuditLog', cardinality: 'one' });
