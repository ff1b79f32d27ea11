/**
 * Thresholds and verdicts: a test's `thresholds` (none by default), copied to each task when it is created (so a later
 * edit of the test never changes a past run's verdict), and a finished task's `verdict` and `threshold_results`.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0017Thresholds extends Migration {
  override name = 'core-0017-thresholds';

  override up(): void {
    this.addSql(`alter table tests add column thresholds jsonb not null default '[]'::jsonb`);
    this.addSql(`alter table tasks add column thresholds jsonb not null default '[]'::jsonb`);
    this.addSql(`alter table tasks add column verdict text`);
    this.addSql(`alter table tasks add column threshold_results jsonb not null default '[]'::jsonb`);
  }
}
