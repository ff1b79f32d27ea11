/** Who is in a workspace and what its tests are called, for notification channels: read through this, never core's tables. */
import { defineCapability } from '../kernel/define-capability.ts';
import type { Sql } from '../services/sql.ts';

export interface EmailRecipient {
  userId: string;
  email: string;
}

export interface WorkspaceDirectory {
  /**
   * Of these users, the members of the workspace that have an e-mail address, with it, ordered by user id; read through
   * `sql` (a consumer's transaction), so what the consumer writes for them commits with it.
   */
  memberEmails(sql: Sql, workspaceId: string, userIds: readonly string[]): Promise<EmailRecipient[]>;
  /** A test's name (archived or deleted tests keep theirs); null for an unknown id. */
  testName(sql: Sql, testId: string | null): Promise<string | null>;
}

export const workspaceDirectoryPort = defineCapability<WorkspaceDirectory>({ id: 'port.workspaceDirectory', cardinality: 'one' });
