/**
 * The webhook tables: endpoints with an encrypted signing secret, one event row per envelope (its id is the envelope id
 * every endpoint receives), one delivery per endpoint and event with a lease for the worker that claimed it, and every
 * attempt. Core's migration 0008 created them until they moved here; a database that ran it has them already, so each
 * statement only creates what is missing.
 */
import { Migration } from '@mikro-orm/migrations';

export class NotifyWebhook0001WebhookTables extends Migration {
  override name = 'notify-webhook-0001-webhook-tables';

  override up(): void {
    this.addSql(`create table if not exists webhooks (
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
    this.addSql(`create index if not exists webhooks_workspace on webhooks (workspace_id, created_at desc, id desc)`);

    this.addSql(`create table if not exists webhook_events (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      event varchar(40) not null,
      outbox_id bigint unique,
      body text not null,
      created_at timestamptz not null
    )`);

    this.addSql(`create table if not exists webhook_deliveries (
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
    this.addSql(`create index if not exists webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'waiting'`);
    this.addSql(`create index if not exists webhook_deliveries_history on webhook_deliveries (webhook_id, created_at desc, id desc)`);
    // One delivery per endpoint and event from the outbox; redeliveries by hand are new rows that name the original.
    this.addSql(`create unique index if not exists webhook_deliveries_once on webhook_deliveries (webhook_id, event_id) where redelivery_of is null`);

    this.addSql(`create table if not exists webhook_attempts (
      id bigserial primary key,
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempted_at timestamptz not null,
      outcome varchar(20) not null,
      status_code integer,
      duration_ms integer not null,
      error text,
      response_excerpt text
    )`);
    this.addSql(`create index if not exists webhook_attempts_delivery on webhook_attempts (delivery_id, id)`);
  }
}
