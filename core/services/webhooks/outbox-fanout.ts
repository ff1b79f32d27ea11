/**
 * Turns outbox rows (run.started, run.finished) into webhook events and one waiting delivery per subscribed, enabled
 * endpoint of the workspace, in one transaction that also marks the rows done: a row is fanned out exactly once,
 * whichever replica gets to it (one fan-out at a time, under an advisory lock), and a crash before commit leaves it to
 * the next collector.
 */
import { envelopeBody, eventOfOutboxRow, type OutboxRow } from '../../domain/webhook-events.ts';
import type { Database } from '../../ports/database.ts';
import { transaction } from '../sql.ts';

/** Returns how many outbox rows were consumed (0: none left). */
export async function fanOutOutbox(db: Database, options: { publicUrl: string; now: Date; batch?: number }): Promise<number> {
  return transaction(db, async (tx) => {
    // One fan-out at a time per consumer, across replicas: it waits rather than skips, so rows a concurrent pass
    // had not seen are read here. Not row locks: other consumers of the same rows (e-mail) must not be held up or skipped.
    await tx.all("select pg_advisory_xact_lock(hashtext('loadplane:outbox:webhooks'))");
    const rows = await tx.all<OutboxRow>(
      `select id, workspace_id, event, task_id, payload, created_at from outbox
       where webhooks_done_at is null and event in ('run.started', 'run.finished')
       order by id limit ?`,
      [options.batch ?? 500],
    );
    if (rows.length === 0) return 0;
    const events = rows.flatMap((row) => {
      const mapped = eventOfOutboxRow(row, options.publicUrl);
      if (!mapped) return [];
      const id = crypto.randomUUID();
      const body = envelopeBody({
        id,
        event: mapped.event,
        created_at: new Date(row.created_at).toISOString(),
        tenant_id: row.workspace_id,
        data: mapped.data,
      });
      return [{ id, workspace_id: row.workspace_id, event: mapped.event, outbox_id: Number(row.id), body }];
    });
    if (events.length > 0) {
      // Set-based: one statement for the events, one for every delivery of every subscribed, enabled endpoint.
      await tx.all(
        `insert into webhook_events (id, workspace_id, event, outbox_id, body, created_at)
         select e.id, e.workspace_id, e.event, e.outbox_id, e.body, ?
         from json_to_recordset(?::json) as e(id uuid, workspace_id uuid, event varchar, outbox_id bigint, body text)
         on conflict (outbox_id) do nothing`,
        [options.now, JSON.stringify(events)],
      );
      await tx.all(
        `insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, state, attempts, next_attempt_at, created_at, updated_at)
         select gen_random_uuid(), w.workspace_id, w.id, e.id, e.event, 'waiting', 0, ?, ?, ?
         from webhook_events e join webhooks w on w.workspace_id = e.workspace_id and w.enabled and w.events @> jsonb_build_array(e.event)
         where e.outbox_id in (${events.map(() => '?').join(', ')})
         on conflict do nothing`,
        [options.now, options.now, options.now, ...events.map((event) => event.outbox_id)],
      );
    }
    await tx.all(`update outbox set webhooks_done_at = ? where id in (${rows.map(() => '?').join(', ')})`, [
      options.now,
      ...rows.map((row) => row.id),
    ]);
    return rows.length;
  });
}
