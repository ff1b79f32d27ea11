/** The workspace's audit log as a plugin writes it: an entry for what a caller did, in the transaction that did it. */
import { defineCapability } from '../kernel/define-capability.ts';
import type { Caller } from '../services/caller.ts';
import type { Sql } from './sql-database.ts';

export interface WorkspaceAuditTarget {
  /** e.g. `webhook`. */
  type: string;
  id?: string | null;
  /** What the log shows for it (a URL, a name). */
  label?: string | null;
}

export interface WorkspaceAuditLog {
  /**
   * Adds an entry to the caller's workspace log (actor: the caller, their token if any), written with `tx` (the
   * transaction of the change): it commits with the change it reports, or neither does.
   */
  record(tx: Sql, caller: Caller, action: string, target: WorkspaceAuditTarget, details?: Record<string, unknown>): Promise<void>;
}

export const workspaceAuditLogPort = defineCapability<WorkspaceAuditLog>({ id: 'port.workspaceAuditLog', cardinality: 'one' });
