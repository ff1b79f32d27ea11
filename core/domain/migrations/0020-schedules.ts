/**
 * Schedules: a test started by cron in a time zone. `next_run_at` is null while a schedule is disabled; the sweep claims
 * due rows (enabled, next_run_at <= now) with FOR UPDATE SKIP LOCKED, so one replica fires each. A run a schedule
 * started carries `tasks.schedule_id` (no foreign key: the run keeps naming its schedule after the schedule is gone).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0020Schedules extends Migration {
  override name = 'core-0020-schedules';

  override up(): void {
    this.addSql(`create table schedules (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      test_id uuid not null references tests (id) on delete cascade,
      cron varchar(200) not null,
      timezone varchar(64) not null,
      config_id uuid,
      machine_ids jsonb not null default '[]',
      enabled boolean not null default true,
      next_run_at timestamptz,
      last_run_at timestamptz,
      last_task_id uuid,
      last_error text,
      created_by uuid,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index schedules_workspace on schedules (workspace_id, created_at desc, id desc)`);
    this.addSql(`create index schedules_due on schedules (next_run_at) where enabled`);
    this.addSql(`create index schedules_test on schedules (test_id)`);
    this.addSql(`alter table tasks add column schedule_id uuid`);
  }
}
