/**
 * Results per endpoint and errors by group. An agent's interval carries per-endpoint snapshots and error groups; the
 * server folds them, in the transaction that stores the interval point, into:
 * - task_endpoint_minutes: per task, machine, endpoint name and minute (epoch minute of the interval's end), the
 *   requests, errors and merged latency histogram (the first and last sample's time too). Once a minute closed, its row
 *   is folded into the machine's total of that endpoint (minute -1), so a run of 8 machines with 50 endpoints holds
 *   about 800 rows however long it runs: GET /tasks/{id}/endpoints merges two histograms per machine and endpoint, and
 *   each second's write rewrites at most a minute's histogram.
 * - task_endpoint_names: the names a task kept (at most 200 and `(other)`), so the guard reads one short list.
 * - task_error_groups: per task, endpoint, kind and code, the count and one sample message.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0018EndpointResults extends Migration {
  override name = 'core-0018-endpoint-results';

  override up(): void {
    this.addSql(`create table task_endpoint_minutes (
      task_id uuid not null references tasks (id) on delete cascade,
      workspace_id uuid not null,
      machine_id uuid not null,
      name text not null,
      minute bigint not null,
      requests bigint not null default 0,
      errors bigint not null default 0,
      histogram jsonb not null,
      started_ms double precision not null,
      ended_ms double precision not null,
      primary key (task_id, name, machine_id, minute)
    )`);
    this.addSql(`create table task_endpoint_names (
      task_id uuid not null references tasks (id) on delete cascade,
      name text not null,
      primary key (task_id, name)
    )`);
    this.addSql(`create table task_error_groups (
      task_id uuid not null references tasks (id) on delete cascade,
      workspace_id uuid not null,
      endpoint text not null,
      kind text not null,
      code text not null,
      message text not null,
      count bigint not null,
      primary key (task_id, endpoint, kind, code)
    )`);
  }
}
