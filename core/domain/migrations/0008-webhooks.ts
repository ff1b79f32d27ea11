/**
 * Outgoing webhooks: endpoints with an encrypted signing secret, one event row per envelope (its id is the envelope id
 * every endpoint receives), one delivery per endpoint and event with a lease for the worker that claimed it, and
 * every attempt; members' notification preferences. The outbox gets a mark per consumer so a row is turned into deliveries exactly once.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0008Webhooks extends Migration {
  override name = 'core-0008-webhooks';

  override up(): void {
    this.addSql(`create table webhooks (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      url text not null,
      description text,
      events jsonb not null,
      enabled boolean not null default true,
      secret_box text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      secret_rotated_at timestamptz
    )`);
    this.addSql(`create index webhooks_workspace on webhooks (workspace_id, created_at desc, id desc)`);

    this.addSql(`create table webhook_events (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      event varchar(40) not null,
      outbox_id bigint unique,
      body text not null,
      created_at timestamptz not null
    )`);

    this.addSql(`create table webhook_deliveries (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      webhook_id uuid not null references webhooks (id) on delete cascade,
      event_id uuid not null references webhook_events (id) on delete cascade,
      event varchar(40) not null,
      state varchar(20) not null check (state in ('waiting', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      lease_id uuid,
      lease_until timestamptz,
      redelivery_of uuid,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'waiting'`);
    this.addSql(`create index webhook_deliveries_history on webhook_deliveries (webhook_id, created_at desc, id desc)`);
    // One delivery per endpoint and event from the outbox; redeliveries by hand are new rows that name the original.
    this.addSql(`create unique index webhook_deliveries_once on webhook_deliveries (webhook_id, event_id) where redelivery_of is null`);

    this.addSql(`create table webhook_attempts (
      id bigserial primary key,
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempted_at timestamptz not null,
      outcome varchar(20) not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      response_excerpt text
    )`);
    this.addSql(`create index webhook_attempts_delivery on webhook_attempts (delivery_id, id)`);

    // Which members want which notifications (e-mail today); a channel plugin reads it, the member sets it.
    this.addSql(`create table notification_preferences (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      channel varchar(20) not null,
      on_failed boolean not null default false,
      on_completed boolean not null default false,
      updated_at timestamptz not null,
      primary key (workspace_id, user_id, channel)
    )`);

    // Rows not yet turned into webhook deliveries; the partial index keeps the consumer's scan to those.
    this.addSql(`alter table outbox add column webhooks_done_at timestamptz`);
    this.addSql(`update outbox set webhooks_done_at = now()`);
    this.addSql(`create index outbox_webhooks_todo on outbox (id) where webhooks_done_at is null and event in ('run.started', 'run.finished')`);
  }
}
