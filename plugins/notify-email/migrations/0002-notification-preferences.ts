/**
 * Which members want which e-mails (channel `email`): on a failed run, on a completed one. Core's migration 0008 created
 * the table until it moved here; a database that ran it has it already, so this only creates it when missing.
 */
import { Migration } from '@mikro-orm/migrations';

export class NotifyEmail0002NotificationPreferences extends Migration {
  override name = 'notify-email-0002-notification-preferences';

  override up(): void {
    this.addSql(`create table if not exists notification_preferences (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      channel varchar(20) not null,
      on_failed boolean not null default false,
      on_completed boolean not null default false,
      updated_at timestamptz not null,
      primary key (workspace_id, user_id, channel)
    )`);
  }
}
