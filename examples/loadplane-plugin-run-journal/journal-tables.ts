/** The journal's own table, as plain-SQL migrations the service runs once per database (never edit a shipped one). */
import type { SqlMigration } from '@loadplane/plugin-kit';

export const journalMigrations: readonly SqlMigration[] = [
  {
    name: 'loadplane-plugin-run-journal-0001-entries',
    statements: [
      // A foreign key to the workspace is allowed (its rows go with it); reading core's tables is not.
      `create table run_journal_entries (
        task_id uuid primary key,
        workspace_id uuid not null references workspaces (id) on delete cascade,
        test_id uuid,
        status text not null,
        verdict text,
        duration_ms bigint not null,
        error text,
        note text,
        finished_at timestamptz not null
      )`,
      'create index run_journal_entries_workspace on run_journal_entries (workspace_id, finished_at desc, task_id)',
    ],
  },
];
