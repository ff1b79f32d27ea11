/** Runs: tasks, their per-machine assignments, stored logs, metric time series, load configurations, agent fields on machines. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0003Runs extends Migration {
  override name = 'core-0003-runs';

  override up(): void {
    this.addSql(`alter table machines add column agent_version varchar(40)`);
    this.addSql(`alter table machines add column last_seen_at timestamptz`);
    this.addSql(`alter table machines add column tools jsonb not null default '[]'`);
    this.addSql(`create table load_configs (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name varchar(200) not null,
      vus integer,
      duration varchar(20),
      stages jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index load_configs_workspace on load_configs (workspace_id, created_at desc, id desc)`);
    this.addSql(`create table tasks (
      id uuid primary key,
      public_id varchar(16) not null unique,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      test_id uuid not null references tests (id),
      config_id uuid references load_configs (id) on delete set null,
      status varchar(20) not null check (status in ('pending', 'running', 'completed', 'failed', 'cancelled')),
      transport varchar(20) not null,
      requested_machine_ids jsonb not null default '[]',
      machine_count integer not null,
      created_by uuid,
      p50 double precision,
      p95 double precision,
      p99 double precision,
      error_rate double precision,
      requests_per_sec double precision,
      total_requests bigint,
      error_message text,
      log_lines integer not null default 0,
      log_truncated boolean not null default false,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`);
    this.addSql(`create index tasks_workspace_created on tasks (workspace_id, created_at desc, id desc)`);
    this.addSql(`create index tasks_pending on tasks (created_at) where status = 'pending'`);
    this.addSql(`create table task_assignments (
      id uuid primary key,
      task_id uuid not null references tasks (id) on delete cascade,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      machine_id uuid not null,
      machine_index integer not null,
      status varchar(20) not null,
      exit_code integer,
      reason text,
      summary jsonb,
      last_log_seq integer not null default 0,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`);
    this.addSql(`create index task_assignments_task on task_assignments (task_id)`);
    this.addSql(`create index task_assignments_machine_active on task_assignments (machine_id) where status in ('pending', 'running')`);
    this.addSql(`create table task_logs (
      id bigserial primary key,
      task_id uuid not null references tasks (id) on delete cascade,
      machine_id uuid,
      source varchar(3) not null,
      text text not null,
      logged_at timestamptz not null
    )`);
    this.addSql(`create index task_logs_task on task_logs (task_id, id)`);
    this.addSql(`create table task_metric_points (
      id bigserial primary key,
      task_id uuid not null references tasks (id) on delete cascade,
      workspace_id uuid not null,
      machine_id uuid not null,
      test_id uuid not null,
      started_at timestamptz not null,
      ended_at timestamptz not null,
      requests integer not null,
      errors integer not null,
      p50 double precision not null,
      p95 double precision not null,
      p99 double precision not null,
      histogram jsonb not null,
      labels jsonb not null default '{}'
    )`);
    this.addSql(`create index task_metric_points_task on task_metric_points (task_id, ended_at)`);
  }
}
