/**
 * Runs decided from the database: agent presence with a lease (machine status is derived from it and from active
 * assignments, no longer stored), one active assignment per machine enforced by a unique index, per-task log
 * sequence numbers (stream event ids), relay rows for live-only lines, a pending deadline, and the outbox.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0004RunLifecycle extends Migration {
  override name = 'core-0004-run-lifecycle';

  override up(): void {
    // Presence: which replica holds the agent's socket, and until when that is believed.
    this.addSql(`alter table machines drop column status`);
    this.addSql(`alter table machines add column connection_id uuid`);
    this.addSql(`alter table machines add column replica_id uuid`);
    this.addSql(`alter table machines add column lease_until timestamptz`);

    this.addSql(`alter table task_assignments drop constraint if exists task_assignments_status_check`);
    this.addSql(`update task_assignments set status = 'failed', reason = coalesce(reason, 'interrupted by an upgrade'), finished_at = now()
      where status not in ('pending', 'running', 'completed', 'failed', 'cancelled')`);
    this.addSql(`alter table task_assignments add constraint task_assignments_status_check
      check (status in ('pending', 'running', 'cancelling', 'completed', 'failed', 'cancelled'))`);
    this.addSql(`alter table task_assignments add column sent_at timestamptz`);
    this.addSql(`drop index if exists task_assignments_machine_active`);
    // The database itself refuses a second active assignment on one machine: no double booking, whichever replica dispatches.
    this.addSql(`create unique index task_assignments_one_active_per_machine on task_assignments (machine_id)
      where status in ('pending', 'running', 'cancelling')`);

    this.addSql(`alter table tasks add column pending_until timestamptz`);
    this.addSql(`alter table tasks add column log_seq bigint not null default 0`);
    this.addSql(`create index tasks_pending_workspace on tasks (workspace_id, created_at, id) where status = 'pending'`);
    this.addSql(`create index tasks_running on tasks (id) where status = 'running'`);

    // Log lines get a per-task sequence (1..N, no gaps while stored): the stream's event id.
    this.addSql(`alter table task_logs add column seq bigint`);
    this.addSql(`update task_logs l set seq = n.seq from (
      select id, row_number() over (partition by task_id order by id) as seq from task_logs) n where n.id = l.id`);
    this.addSql(`update tasks t set log_seq = coalesce((select max(seq) from task_logs l where l.task_id = t.id), 0)`);
    this.addSql(`alter table task_logs alter column seq set not null`);
    this.addSql(`alter table task_logs drop constraint task_logs_pkey`);
    this.addSql(`alter table task_logs drop column id`);
    this.addSql(`drop index if exists task_logs_task`);
    this.addSql(`alter table task_logs add primary key (task_id, seq)`);
    // Lines past the stored-log limit are relayed to other replicas' streams through short-lived rows.
    this.addSql(`alter table task_logs add column relay boolean not null default false`);
    this.addSql(`create index task_logs_relay on task_logs (logged_at) where relay`);

    // One row per event, written in the transaction of the transition it reports; webhooks deliver from it.
    this.addSql(`create table outbox (
      id bigserial primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      event varchar(40) not null,
      task_id uuid,
      payload jsonb not null default '{}',
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create index outbox_task on outbox (task_id, event)`);
  }
}
