/**
 * task_endpoint_minutes' histograms are stored out of line without compression (storage `external`): the row of each
 * machine's open minute of each endpoint is rewritten every second with the minute's merged histogram (migration 0018),
 * and PostgreSQL compressed each new value with pglz before storing it. For a test of 50 steps that is ~50 values of
 * ~15–25 kB a second, and compressing them was about two thirds of the statement's cost (PostgreSQL 15: ~19 ms of a
 * backend's CPU a second, ~7 ms without; PGlite in the service's process: ~21 ms, ~9 ms). The rows take about twice
 * the space (a run of 8 machines and 50 endpoints keeps ~800 of them); the timeline and the interval points, written
 * once, stay compressed. A change of the column's storage only: no table rewrite, values already stored stay as they
 * are, and reads are unchanged.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0023EndpointMinutesUncompressed extends Migration {
  override name = 'core-0023-endpoint-minutes-uncompressed';

  override up(): void {
    this.addSql(`alter table task_endpoint_minutes alter column histogram set storage external`);
  }
}
