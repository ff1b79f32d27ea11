/**
 * Turns new outbox records (run.started, run.finished) into webhook events and one waiting delivery per subscribed,
 * enabled endpoint of the workspace, in the transaction that moves this channel's outbox cursor past them: a record is
 * fanned out exactly once, whichever replica gets to it, and a crash before commit leaves it to the next pass.
 */
import { envelopeBody, eventOfOutboxRow, type OutboxFeed, type OutboxRecord, type Sql } from 'loadplane/plugin';

/** This channel's cursor in the outbox. */
export const webhookConsumer = 'notify-webhook';
const events = ['run.started', 'run.finished'] as const;

export async function fanOutRecords(tx: Sql, records: readonly OutboxRecord[], options: { publicUrl: string; now: Date }): Promise<void> {
  const mapped = records.flatMap((record) => {
    const event = eventOfOutboxRow(
      { id: record.id, workspace_id: record.workspaceId, event: record.event, task_id: record.taskId, payload: record.payload, created_at: record.createdAt },
      options.publicUrl,
    );
    if (!event) return [];
    const id = crypto.randomUUID();
    const body = envelopeBody({ id, event: event.event, created_at: record.createdAt.toISOString(), tenant_id: record.workspaceId, data: event.data });
    return [{ id, workspace_id: record.workspaceId, event: event.event, outbox_id: record.id, body }];
  });
  if (mapped.length === 0) return;
  // Set-based: one statement for the events, one for every delivery of every subscribed, enabled endpoint. The
  // conflicts make a record read twice (the upgrade's first pass) harmless: one event per record, one delivery per endpoint.
  await tx.all(
    `insert into webhook_events (id, workspace_id, event, outbox_id, body, created_at)
     select e.id, e.workspace_id, e.event, e.outbox_id, e.body, ?
     from json_to_recordset(?::json) as e(id uuid, workspace_id uuid, event varchar, outbox_id bigint, body text)
     on conflict (outbox_id) do nothing`,
    [options.now, JSON.stringify(mapped)],
  );
  await tx.all(
    `insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, state, attempts, next_attempt_at, created_at, updated_at)
     select gen_random_uuid(), w.workspace_id, w.id, e.id, e.event, 'waiting', 0, ?, ?, ?
     from webhook_events e join webhooks w on w.workspace_id = e.workspace_id and w.enabled and w.events @> jsonb_build_array(e.event)
     where e.outbox_id in (${mapped.map(() => '?').join(', ')})
     on conflict do nothing`,
    [options.now, options.now, options.now, ...mapped.map((event) => event.outbox_id)],
  );
}

/** One batch after this channel's cursor; resolves to how many records were read (0: caught up). */
export function fanOutOutbox(outbox: OutboxFeed, options: { publicUrl: string; now: Date; batch?: number }): Promise<number> {
  return outbox.consume(webhookConsumer, { events, limit: options.batch ?? 500 }, (records, tx) => fanOutRecords(tx, records, options));
}
