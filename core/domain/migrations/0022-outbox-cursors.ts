/**
 * One cursor per outbox consumer instead of a `*_done_at` column per consumer on the outbox: consumers (notification
 * channels) read the rows after their cursor and move it in the transaction of their own writes. Outbox ids become
 * commit-ordered, so a cursor never passes a row that commits late.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0022OutboxCursors extends Migration {
  override name = 'core-0022-outbox-cursors';

  override up(): void {
    this.addSql(`create table outbox_cursors (
      consumer text primary key,
      last_id bigint not null,
      updated_at timestamptz not null default now()
    )`);
    // Each consumer starts after what it has already handled: before its first row still unmarked, else at the end.
    // Rows past that point it had marked are read again, which both consumers absorb (one webhook event per outbox row,
    // one e-mail per outbox row and member), so the upgrade neither re-sends nor drops a notification.
    this.addSql(`insert into outbox_cursors (consumer, last_id)
      select 'notify-webhook', coalesce(
        (select min(id) - 1 from outbox where webhooks_done_at is null and event in ('run.started', 'run.finished')),
        (select max(id) from outbox), 0)`);
    // The e-mail plugin's mark exists only where that plugin ran (its first migration added it).
    this.addSql(`do $$ begin
      if exists (select 1 from information_schema.columns
                 where table_schema = current_schema() and table_name = 'outbox' and column_name = 'email_done_at') then
        insert into outbox_cursors (consumer, last_id)
          select 'notify-email', coalesce(
            (select min(id) - 1 from outbox where email_done_at is null and event = 'run.finished'),
            (select max(id) from outbox), 0);
        alter table outbox drop column email_done_at;
      end if;
    end $$`);
    this.addSql(`alter table outbox drop column webhooks_done_at`);

    // Ids in commit order. An id drawn at insert may commit after a larger one, and a cursor already past the larger
    // one would never see it. So at commit (a deferred trigger, the last thing the transaction does, holding nothing
    // anyone waits on) each new row takes a fresh id under a lock held until the commit ends: a row visible with id n
    // means every row below n has committed or never will. Outbox writers' commits queue on that lock, briefly.
    this.addSql(`create function outbox_commit_order() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('loadplane:outbox:commit-order'));
        update outbox set id = nextval(pg_get_serial_sequence('outbox', 'id')) where id = new.id;
        return null;
      end $$`);
    this.addSql(`create constraint trigger outbox_commit_order after insert on outbox
      deferrable initially deferred for each row execute function outbox_commit_order()`);
  }
}
