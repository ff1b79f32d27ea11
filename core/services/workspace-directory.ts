/** The workspace directory port over core's tables: members' addresses and test names. */
import type { WorkspaceDirectory } from '../ports/workspace-directory.ts';

export function createWorkspaceDirectory(): WorkspaceDirectory {
  return {
    async memberEmails(sql, workspaceId, userIds) {
      if (userIds.length === 0) return [];
      const rows = await sql.all<{ user_id: string; email: string }>(
        `select u.id as user_id, u.email from memberships m join user_profiles u on u.id = m.user_id
         where m.workspace_id = ? and m.user_id in (${userIds.map(() => '?').join(', ')}) and u.email is not null
         order by u.id`,
        [workspaceId, ...userIds],
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
