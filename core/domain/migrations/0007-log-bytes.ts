/** Stored log bytes per task, so a run's stored log is bounded in bytes as well as in lines. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0007LogBytes extends Migration {
  override name = 'core-0007-log-bytes';

  override up(): void {
    this.addSql(`alter table tasks add column log_bytes bigint not null default 0`);
  }
}
