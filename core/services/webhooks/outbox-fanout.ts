/**
 * Turns outbox rows (run.started, run.finished) into webhook events and one waiting delivery per subscribed, enabled
 * endpoint of the workspace, in one transaction that also marks the rows done: a row is fanned out exactly once,
 * whichever replica gets to it (SKIP LOCKED), and a crash before commit leaves it to the next collector.
 */
import { envelopeBody, eventOfOutboxRow, type OutboxRow } from '../../domain/webhook-events.ts';
import type { Database } from '../../ports/database.ts';
import { transaction } from '../sql.ts';

/** Returns how many outbox rows were consumed (0: none left). */
export async function fanOutOutbox(db: Database, options: { publicUrl: string; now: Date; batch?: number }): Promise<number> {
  return transaction(db, async (tx) => {
    const rows = await tx.all<OutboxRow>(
      `select id, workspace_id, event, task_id, payload, created_at from outbox
       where webhooks_done_at is null and event in ('run.started', 'run.finished')
       order by id limit ? for update skip locked`,
      [options.batch ?? 500],
    );
    if (rows.length === 0) return 0;
    for (const row of rows) {
      const mapped = eventOfOutboxRow(row, options.publicUrl);
      if (!mapped) continue;
      const eventId = crypto.randomUUID();
      const body = envelopeBody({
        id: eventId,
        event: mapped.event,
        created_at: new Date(row.created_at).toISOString(),
        tenant_id: row.workspace_id,
        data: mapped.data,
      });
      await tx.all(
        `insert into webhook_events (id, workspace_id, event, outbox_id, body, created_at) values (?, ?, ?, ?, ?, ?)
         on conflict (outbox_id) do nothing`,
        [eventId, row.workspace_id, mapped.event, row.id, body, options.now],
      );
      await tx.all(
        `insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, state, attempts, next_attempt_at, created_at, updated_at)
         select gen_random_uuid(), w.workspace_id, w.id, e.id, e.event, 'waiting', 0, ?, ?, ?
         from webhooks w join webhook_events e on e.outbox_id = ?
         where w.workspace_id = ? and w.enabled and w.events @> ?::jsonb
         on conflict do nothing`,
        [options.now, options.now, options.now, row.id, row.workspace_id, JSON.stringify([mapped.event])],
      );
    }
    await tx.all(`update outbox set webhooks_done_at = ? where id in (${rows.map(() => '?').join(', ')})`, [
      options.now,
      ...rows.map((row) => row.id),
    ]);
    return rows.length;
  });
}
