/**
 * Baselines: a test may name one finished run of its own as its baseline (`PUT /tests/{id}/baseline`), the run that
 * `GET /tasks/{id}/compare?with=baseline` compares against. None by default; a run that goes away would clear it.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0019TestBaselines extends Migration {
  override name = 'core-0019-test-baselines';

  override up(): void {
    this.addSql(`alter table tests add column baseline_task_id uuid references tasks (id) on delete set null`);
    // A run deleted some day (none is today) clears the baselines that name it without scanning every test.
    this.addSql(`create index tests_baseline_task on tests (baseline_task_id) where baseline_task_id is not null`);
    // The trend reads a test's last finished runs: by test, newest end first.
    this.addSql(`create index tasks_test_finished on tasks (test_id, finished_at desc) where finished_at is not null`);
  }
}
