/** E-mail notifications: one message per run event and opted-in member, with attempts and a lease like webhook deliveries. */
import { Migration } from '@mikro-orm/migrations';

export class NotifyEmail0001EmailNotifications extends Migration {
  override name = 'notify-email-0001-email-notifications';

  override up(): void {
    this.addSql(`create table email_notifications (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      outbox_id bigint not null,
      to_address text not null,
      subject text not null,
      body text not null,
      state varchar(20) not null check (state in ('waiting', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      lease_id uuid,
      lease_until timestamptz,
      last_error text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (outbox_id, user_id)
    )`);
    this.addSql(`create index email_notifications_due on email_notifications (next_attempt_at) where state = 'waiting'`);
    // Rows not yet turned into e-mails: this consumer's own mark on the outbox.
    this.addSql(`alter table outbox add column email_done_at timestamptz`);
    this.addSql(`update outbox set email_done_at = now()`);
    this.addSql(`create index outbox_email_todo on outbox (id) where email_done_at is null and event = 'run.finished'`);
  }
}
