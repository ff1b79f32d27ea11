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
    // Which run events this channel has handled is its cursor in the core's outbox_cursors (core-0022), not a column of
    // the outbox. Databases that ran the first version of this migration had `outbox.email_done_at`; core-0022 turned
    // it into the cursor and dropped it, so this version, which fresh databases run, no longer touches the outbox.
  }
}
