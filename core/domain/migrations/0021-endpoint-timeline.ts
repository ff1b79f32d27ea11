/**
 * Results per endpoint over time: when a machine's minute of an endpoint closes and is folded into its total
 * (migration 0018), the minute is also merged, across machines, into task_endpoint_timeline: one row per task, endpoint
 * name and minute with the requests, errors and merged latency histogram of every machine. The endpoints table's
 * sparklines and the top-10 chart read it (with the minutes still open), 3,000 rows for an hour of 50 endpoints
 * whatever the number of machines.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0021EndpointTimeline extends Migration {
  override name = 'core-0021-endpoint-timeline';

  override up(): void {
    this.addSql(`create table task_endpoint_timeline (
      task_id uuid not null references tasks (id) on delete cascade,
      workspace_id uuid not null,
      name text not null,
      minute bigint not null,
      requests bigint not null default 0,
      errors bigint not null default 0,
      histogram jsonb not null,
      primary key (task_id, name, minute)
    )`);
  }
}
