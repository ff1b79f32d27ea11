/**
 * Usage: `workspace_usage` counts a workspace's AI tool calls per UTC calendar month (`period` 'YYYY-MM'), one row per
 * workspace and month, raised by one atomic upsert so the budget holds across replicas. Machines get the agent's
 * `region` and a `benchmark_capacity` (requests/s the machine sustained in a calibration; null until one ran). GET
 * /usage sums a workspace's OTLP points through its series, hence the series' index by workspace.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0015UsageAndMachineRegion extends Migration {
  override name = 'core-0015-usage-and-machine-region';

  override up(): void {
    this.addSql(`create table workspace_usage (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      period char(7) not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      ai_tool_calls integer not null default 0 check (ai_tool_calls >= 0),
      primary key (workspace_id, period)
    )`);
    this.addSql(`alter table machines add column region text`);
    this.addSql(`alter table machines add column benchmark_capacity double precision check (benchmark_capacity >= 0)`);
    this.addSql(`create index otel_series_workspace on otel_series (workspace_id)`);
  }
}
