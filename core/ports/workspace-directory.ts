/** Who is in a workspace and what its tests are called, for notification channels: read through this, never core's tables. */
import { defineCapability } from '../kernel/define-capability.ts';
import type { Sql } from '../services/sql.ts';

export interface EmailRecipient {
  userId: string;
  email: string;
}

export interface WorkspaceDirectory {
  /**
   * The members who opted in to e-mails about a run that ended `outcome` (notification preferences, channel `email`)
   * and have an address; read through `sql` (a consumer's transaction), so what it writes for them commits with it.
   */
  emailRecipients(sql: Sql, workspaceId: string, outcome: 'failed' | 'completed'): Promise<EmailRecipient[]>;
  /** A test's name (archived or deleted tests keep theirs); null for an unknown id. */
  testName(sql: Sql, testId: string | null): Promise<string | null>;
}

export const workspaceDirectoryPort = defineCapability<WorkspaceDirectory>({ id: 'port.workspaceDirectory', cardinality: 'one' });
