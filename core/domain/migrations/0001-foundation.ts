/** Foundation schema: workspaces, user profiles, memberships, machines and tests. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0001Foundation extends Migration {
  override name = 'core-0001-foundation';

  override up(): void {
    this.addSql(`create table workspaces (
      id uuid primary key,
      name varchar(200) not null,
      plan varchar(20) not null check (plan in ('starter', 'scale', 'enterprise')),
      status varchar(20) not null default 'active' check (status in ('active', 'suspended')),
      pending_owner_username varchar(255),
      is_bootstrap boolean not null default false,
      created_at timestamptz not null
    )`);
    // At most one bootstrap workspace, even when two replicas start at once.
    this.addSql(`create unique index workspaces_one_bootstrap on workspaces (is_bootstrap) where is_bootstrap`);
    this.addSql(`create table user_profiles (
      id uuid primary key,
      subject varchar(255) not null unique,
      email varchar(320),
      name varchar(255),
      username varchar(255),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table memberships (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      role varchar(20) not null check (role in ('owner', 'admin', 'member', 'viewer')),
      created_at timestamptz not null,
      unique (workspace_id, user_id)
    )`);
    this.addSql(`create index memberships_user on memberships (user_id, created_at)`);
    this.addSql(`create table machines (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name varchar(100) not null,
      hostname varchar(253) not null,
      ip_address varchar(45) not null,
      os varchar(20) not null,
      arch varchar(20) not null,
      cpu_cores integer not null,
      memory_gb integer not null,
      status varchar(20) not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // Hostnames are unique per workspace; the index also serves the workspace-scoped list.
    this.addSql(`create unique index machines_workspace_hostname on machines (workspace_id, lower(hostname))`);
    this.addSql(`create index machines_workspace_created on machines (workspace_id, created_at desc, id desc)`);
    this.addSql(`create table tests (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name varchar(200) not null,
      tool varchar(20) not null,
      status varchar(20) not null,
      script text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`);
    this.addSql(
      `create index tests_workspace_created on tests (workspace_id, created_at desc, id desc) where deleted_at is null`,
    );
  }
}
