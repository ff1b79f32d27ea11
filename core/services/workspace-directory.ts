/** The workspace directory port over core's tables: opted-in members' addresses and test names. */
import type { WorkspaceDirectory } from '../ports/workspace-directory.ts';

export function createWorkspaceDirectory(): WorkspaceDirectory {
  return {
    async emailRecipients(sql, workspaceId, outcome) {
      const wanted = outcome === 'failed' ? 'p.on_failed' : 'p.on_completed';
      const rows = await sql.all<{ user_id: string; email: string }>(
        `select p.user_id, u.email from notification_preferences p
         join memberships m on m.workspace_id = p.workspace_id and m.user_id = p.user_id
         join user_profiles u on u.id = p.user_id
         where p.workspace_id = ? and p.channel = 'email' and ${wanted} and u.email is not null
         order by p.user_id`,
        [workspaceId],
      );
      return rows.map((row) => ({ userId: row.user_id, email: row.email }));
    },
    async testName(sql, testId) {
      if (!testId) return null;
      const [test] = await sql.all<{ name: string }>('select name from tests where id = ?', [testId]);
      return test?.name ?? null;
    },
  };
}
