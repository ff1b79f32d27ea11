/**
 * loadplane-plugin-run-journal: a journal of every finished run of a workspace (status, verdict, duration, error) with
 * a note members can add, a third-party plugin in its own package. It shows what a plugin that is not a load tool
 * gets from the published kit: its own table (plain-SQL migrations), the run outbox under its own cursor, and REST
 * endpoints under /api/v1 with the service's authentication, policies and OpenAPI document, and entries in the
 * workspace's audit log. It touches no core table.
 */
import {
  apiEndpointsCapability,
  definePlugin,
  notificationChannelCapability,
  outboxFeedPort,
  sqlDatabasePort,
  workspaceAuditLogPort,
} from '@loadplane/plugin-kit';
import { journalChannel } from './journal-channel.ts';
import { journalEndpoints } from './journal-endpoints.ts';
import { journalMigrations } from './journal-tables.ts';

export { journalEntryOf, type JournalEntry } from './journal-entry.ts';
export { journalConsumer } from './journal-channel.ts';

export default definePlugin({
  name: 'loadplane-plugin-run-journal',
  sqlMigrations: journalMigrations,
  setup(ctx) {
    // Agents load plugins too, and have no database: the journal lives on the service only.
    if (!ctx.has(sqlDatabasePort)) return;
    ctx.provide(apiEndpointsCapability, journalEndpoints(ctx.use(sqlDatabasePort), ctx.use(workspaceAuditLogPort)));
    const channel = journalChannel(ctx.use(outboxFeedPort), { logger: ctx.logger, stopped: () => ctx.signal.aborted });
    ctx.provide(notificationChannelCapability, channel);
    ctx.onStop(() => channel.settled());
  },
});
