/**
 * The journal as a notification channel: woken by the service after run transitions, it reads run.finished events
 * after its own outbox cursor and writes their entries in the same transaction that moves the cursor, so an entry is
 * never lost or written twice (across replicas too: one pass at a time per consumer).
 */
import { coalescingPass, type Logger, type NotificationChannel, type OutboxFeed } from '@loadplane/plugin-kit';
import { journalEntryOf } from './journal-entry.ts';

/** The plugin's outbox cursor: a new install starts at the end of the outbox (it does not journal the past). */
export const journalConsumer = 'loadplane-plugin-run-journal';

export function journalChannel(outbox: OutboxFeed, options: { logger: Logger; stopped: () => boolean }): NotificationChannel & { settled(): Promise<void> } {
  const round = async () => {
    const handled = await outbox.consume(journalConsumer, { events: ['run.finished'], limit: 200 }, async (records, tx) => {
      for (const entry of records.map(journalEntryOf)) {
        if (!entry) continue;
        await tx.all(
          `insert into run_journal_entries (task_id, workspace_id, test_id, status, verdict, duration_ms, error, finished_at)
           values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (task_id) do nothing`,
          [entry.taskId, entry.workspaceId, entry.testId, entry.status, entry.verdict, entry.durationMs, entry.error, entry.finishedAt],
        );
      }
    });
    // A full batch may have more behind it.
    if (handled > 0) pass.again();
  };
  const pass = coalescingPass(round, {
    stopped: options.stopped,
    onError: (error) => options.logger.warn('the run journal could not read the outbox', { error: String(error) }),
  });
  return { name: journalConsumer, wake: () => pass(), settled: () => pass.settled() };
}
