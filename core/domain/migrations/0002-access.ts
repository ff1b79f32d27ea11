/** Access: API tokens, per-workspace role permissions, the audit log, and users' last-seen realm roles. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0002Access extends Migration {
  override name = 'core-0002-access';

  override up(): void {
    this.addSql(`alter table user_profiles add column realm_roles jsonb not null default '[]'`);
    this.addSql(`create table api_tokens (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      name varchar(100) not null,
      scopes jsonb not null default '[]',
      secret_hash char(64) not null unique,
      secret_hint varchar(16) not null,
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null,
      rotated_at timestamptz
    )`);
    this.addSql(`create index api_tokens_owner on api_tokens (workspace_id, user_id, created_at desc) where revoked_at is null`);
    this.addSql(`create table role_permission_overrides (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      role varchar(20) not null check (role in ('admin', 'member', 'viewer')),
      permissions jsonb not null,
      updated_at timestamptz not null,
      primary key (workspace_id, role)
    )`);
    this.addSql(`create table audit_log (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      action varchar(64) not null,
      actor_type varchar(10) not null check (actor_type in ('user', 'token', 'system')),
      actor_id varchar(64),
      actor_label varchar(255),
      actor_user_id uuid,
      target_type varchar(32) not null,
      target_id varchar(64),
      target_label varchar(255),
      details jsonb not null default '{}',
      created_at timestamptz not null
    )`);
    this.addSql(`create index audit_log_workspace_created on audit_log (workspace_id, created_at desc, id desc)`);
  }
}
