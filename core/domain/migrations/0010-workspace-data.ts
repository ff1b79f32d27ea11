/**
 * Workspace data: environment variables (values sealed with SECRET_KEY), dashboards of metric panels, git
 * repositories with their sync state and sealed credentials, and the link from a test to the repository file it was
 * synced from. (The list in index.ts decides the order; numbers may have gaps.)
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0010WorkspaceData extends Migration {
  override name = 'core-0010-workspace-data';

  override up(): void {
    this.addSql(`create table env_vars (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      key varchar(128) not null,
      value_box text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      updated_by jsonb not null
    )`);
    this.addSql(`create unique index env_vars_key on env_vars (workspace_id, key)`);
    this.addSql(`create index env_vars_workspace on env_vars (workspace_id, created_at desc, id desc)`);

    this.addSql(`create table dashboards (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name varchar(200) not null,
      panels jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index dashboards_workspace on dashboards (workspace_id, created_at desc, id desc)`);

    this.addSql(`create table git_repos (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      url text not null,
      branch varchar(255) not null,
      path varchar(1024) not null,
      credentials_box text,
      sync_status varchar(20) not null check (sync_status in ('never', 'queued', 'syncing', 'synced', 'failed')),
      sync_requested_at timestamptz,
      sync_again boolean not null default false,
      lease_id uuid,
      lease_until timestamptz,
      last_commit varchar(64),
      last_synced_at timestamptz,
      last_error text,
      last_result jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index git_repos_workspace on git_repos (workspace_id, created_at desc, id desc)`);
    this.addSql(`create index git_repos_due on git_repos (sync_requested_at) where sync_status in ('queued', 'syncing')`);

    // A synced test remembers its repository and file: a re-sync updates it instead of adding another.
    this.addSql(`alter table tests add column git_repo_id uuid references git_repos (id) on delete set null`);
    this.addSql(`alter table tests add column git_path varchar(1024)`);
    this.addSql(`create unique index tests_git_file on tests (git_repo_id, git_path) where git_repo_id is not null and deleted_at is null`);
  }
}
