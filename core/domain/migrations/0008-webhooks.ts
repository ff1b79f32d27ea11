/**
 * Outgoing webhooks: the outbox got a mark per consumer so a row was turned into deliveries exactly once (core-0022
 * replaced it with per-consumer cursors). The webhook tables and the members' notification preferences this migration
 * also created are the plugins' now (notify-webhook-0001, notify-email-0002): databases that ran the first version of
 * this migration keep theirs, and fresh ones get them from those migrations.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0008Webhooks extends Migration {
  override name = 'core-0008-webhooks';

  override up(): void {
    // Rows not yet turned into webhook deliveries; the partial index keeps the consumer's scan to those.
    this.addSql(`alter table outbox add column webhooks_done_at timestamptz`);
    this.addSql(`update outbox set webhooks_done_at = now()`);
    this.addSql(`create index outbox_webhooks_todo on outbox (id) where webhooks_done_at is null and event in ('run.started', 'run.finished')`);
  }
}
