/**
 * The e-mail consumer of the run outbox: each run.finished record after this channel's cursor becomes one message per
 * member who opted in (failed runs, and completed ones for those who asked), written in the transaction that moves
 * the cursor past it; messages are then sent under a lease with the webhook retry schedule (1 min, 5 min, 30 min,
 * 2 h, then failed).
 */
import { coalescingPass, type Database, type Logger, nextAttemptAfterFailure, type OutboxFeed, type OutboxRecord, type Sql, sqlOf, type WorkspaceDirectory } from 'loadplane/plugin';

/** This channel's cursor in the outbox. */
export const emailConsumer = 'notify-email';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (message: MailMessage) => Promise<void>;

type FinishedPayload = { status?: string; duration_ms?: number; error?: string | null; test_id?: string | null; verdict?: string | null };

export function createEmailWorker(options: {
  db: Database;
  /** The run events after this channel's cursor. */
  outbox: OutboxFeed;
  /** Who opted in, and the tests' names: the service's records, read through its port. */
  directory: WorkspaceDirectory;
  send: SendMail | null;
  publicUrl: string;
  logger: Logger;
  now?: () => Date;
}) {
  const now = options.now ?? (() => new Date());
  const db = options.db;
  let stopped = false;

  /** The users of the workspace who asked for e-mails about runs that end `outcome` (their notification preferences). */
  async function optedIn(tx: Sql, workspaceId: string, outcome: 'failed' | 'completed'): Promise<string[]> {
    const rows = await tx.all<{ user_id: string }>(
      `select user_id from notification_preferences where workspace_id = ? and channel = 'email' and ${outcome === 'failed' ? 'on_failed' : 'on_completed'}`,
      [workspaceId],
    );
    return rows.map((row) => row.user_id);
  }

  /** Queues the messages of one batch of run.finished records, through the transaction that moves the cursor. */
  async function queueMessages(records: readonly OutboxRecord[], tx: Sql): Promise<void> {
    const at = now();
    for (const record of records) {
      const row = { id: record.id, workspace_id: record.workspaceId, task_id: record.taskId, payload: record.payload as FinishedPayload };
      const status = String(row.payload.status);
      // A cancel is somebody's decision, not news: failed runs, and completed ones for those who asked.
      // Without a mail transport the cursor only moves past them: nobody is mailed about old runs once SMTP_URL is set.
      if (!options.send) continue;
      if (status !== 'failed' && status !== 'completed') continue;
      const recipients = await options.directory.memberEmails(tx, row.workspace_id, await optedIn(tx, row.workspace_id, status));
      if (recipients.length === 0) continue;
      const name = (await options.directory.testName(tx, row.payload.test_id ?? null)) ?? 'a test';
      const verb = status === 'failed' ? 'failed' : 'completed';
      const subject = `[Loadplane] ${name}: run ${verb}`;
      const text = [
        `The run of "${name}" ${verb}.`,
        `Status: ${status}`,
        `Duration: ${Math.round((row.payload.duration_ms ?? 0) / 1000)} s`,
        ...(row.payload.verdict ? [`Thresholds: ${row.payload.verdict}`] : []),
        ...(row.payload.error ? [`Error: ${row.payload.error}`] : []),
        `Log: ${options.publicUrl}/api/v1/tasks/${row.task_id}/log-stream`,
        '',
        'You receive this because you opted in to these e-mails (PUT /api/v1/notification-preferences).',
      ].join('\n');
      await tx.all(
        `insert into email_notifications (id, workspace_id, user_id, outbox_id, to_address, subject, body, state, attempts, next_attempt_at, created_at, updated_at)
         select gen_random_uuid(), ?, r.user_id, ?, r.email, ?, ?, 'waiting', 0, ?, ?, ?
         from json_to_recordset(?::json) as r(user_id uuid, email text)
         on conflict (outbox_id, user_id) do nothing`,
        [row.workspace_id, row.id, subject, text, at, at, at, JSON.stringify(recipients.map((one) => ({ user_id: one.userId, email: one.email })))],
      );
    }
  }

  /** One batch after the cursor (one pass per consumer at a time across replicas); 0 when caught up. */
  const fanOut = () => options.outbox.consume(emailConsumer, { events: ['run.finished'], limit: 200 }, queueMessages);

  async function sendDue(): Promise<number> {
    const leaseId = crypto.randomUUID();
    const at = now();
    const messages = await sqlOf(db).all<{ id: string; attempts: number; to_address: string; subject: string; body: string }>(
      `update email_notifications set lease_id = ?, lease_until = ?
       where id in (select id from email_notifications where state = 'waiting' and next_attempt_at <= ?
                    and (lease_until is null or lease_until < ?) order by next_attempt_at, id limit 20 for update skip locked)
       returning id, attempts, to_address, subject, body`,
      [leaseId, new Date(at.getTime() + 60_000), at, at],
    );
    await Promise.all(
      messages.map(async (message) => {
        let error: string | null = null;
        try {
          await options.send!({ to: message.to_address, subject: message.subject, text: message.body });
        } catch (cause) {
          error = String((cause as Error)?.message ?? cause);
        }
        const attempts = message.attempts + 1;
        const next = error ? nextAttemptAfterFailure(attempts, at) : null;
        await sqlOf(db).all(
          `update email_notifications set attempts = ?, state = ?, next_attempt_at = ?, last_error = ?, lease_id = null, lease_until = null, updated_at = ?
           where id = ? and lease_id = ?`,
          [attempts, error ? (next ? 'waiting' : 'failed') : 'sent', next, error, now(), message.id, leaseId],
        );
      }),
    );
    return messages.length;
  }

  async function collect() {
    while (!stopped && (await fanOut()) > 0) {
      // A burst may exceed one batch.
    }
    while (!stopped && (await sendDue()) > 0) {
      // Until nothing is due.
    }
  }

  const wake = coalescingPass(collect, {
    stopped: () => stopped,
    onError: (error) => options.logger.error('e-mail notifications failed', { error: String(error) }),
  });

  return {
    collect,
    wake,
    async stop() {
      stopped = true;
      await wake.settled();
    },
  };
}
