/** The outbox feed over the database: each consumer's rows after its cursor in `outbox_cursors`, moved in its own transaction. */
import type { OutboxRow } from '../../domain/webhook-events.ts';
import type { Database } from '../../ports/database.ts';
import type { OutboxFeed, OutboxRecord } from '../../ports/outbox-feed.ts';
import { type Sql, sqlOf, transaction } from '../sql.ts';

interface Row extends OutboxRow {
  /** The newest id in the same snapshot as the rows: where the cursor may go when no wanted row is left. */
  horizon: string | number | null;
}

const toRecord = (row: Row): OutboxRecord => ({
  id: Number(row.id),
  workspaceId: row.workspace_id,
  event: row.event,
  taskId: row.task_id,
  payload: row.payload,
  createdAt: new Date(row.created_at),
});

/** A new consumer starts at the end: the outbox's past is not news to it (as a channel installed today). */
const register = (sql: Sql, consumer: string) =>
  sql.all(
    `insert into outbox_cursors (consumer, last_id, updated_at) select ?, coalesce(max(id), 0), now() from outbox
     on conflict (consumer) do nothing`,
    [consumer],
  );

export function createOutboxFeed(db: Database): OutboxFeed {
  return {
    async register(consumer) {
      await register(sqlOf(db), consumer);
    },

    async consume(consumer, options, handle) {
      const limit = options.limit ?? 500;
      const events = options.events ? [...options.events] : null;
      return transaction(db, async (tx) => {
        await register(tx, consumer);
        // The row lock makes a second pass of this consumer (another replica) wait and then read past what this one
        // handled; other consumers' cursors are other rows, so nobody else is held up.
        const [cursor] = await tx.all<{ last_id: string | number }>('select last_id from outbox_cursors where consumer = ? for update', [consumer]);
        const after = Number(cursor!.last_id);
        // One statement, one snapshot: the rows and the newest id agree. Ids are commit-ordered (migration 0022), so
        // nothing can still appear at or below the horizon.
        const rows = await tx.all<Row>(
          `select o.id, o.workspace_id, o.event, o.task_id, o.payload, o.created_at, h.horizon
           from (select max(id) as horizon from outbox) h
           left join outbox o on o.id > ? ${events ? `and o.event in (${events.map(() => '?').join(', ')})` : ''}
           order by o.id limit ?`,
          [after, ...(events ?? []), limit],
        );
        const records = rows.filter((row) => row.id !== null).map(toRecord);
        if (records.length > 0) await handle(records, tx);
        // A full batch may have more behind it: stop at its last row. Otherwise every later row was unwanted.
        const last = records.length === limit ? records.at(-1)!.id : Math.max(after, Number(rows[0]?.horizon ?? 0));
        if (last !== after) await tx.all('update outbox_cursors set last_id = ?, updated_at = now() where consumer = ?', [last, consumer]);
        return records.length;
      });
    },
  };
}
