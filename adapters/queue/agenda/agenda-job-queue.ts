/**
 * JobQueue on Agenda with its PostgreSQL backend: jobs live in the service's own database (table agenda_jobs), each run
 * is locked there (FOR UPDATE SKIP LOCKED), so a recurring job runs on one replica per tick and survives restarts.
 */
import { getCreateIndexesSQL, getCreateTableSQL, getUpdateTimestampTriggerSQL, PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda } from 'agenda';
import pg from 'pg';
import type { Logger } from '../../../core/kernel/logger.ts';
import type { JobQueue } from '../../../core/ports/job-queue.ts';

export interface AgendaQueueOptions {
  connectionString: string;
  /** Shown as lastModifiedBy in agenda_jobs: which replica locked a job. */
  name?: string;
  /** How often Agenda polls for due jobs besides its LISTEN/NOTIFY wake-ups; a number: its string parser misreads "500 milliseconds". */
  processEveryMillis?: number;
  logger: Logger;
}

const table = 'agenda_jobs';

/**
 * The backend's own schema step is a series of CREATE ... IF NOT EXISTS that races when two replicas start at once
 * (duplicate pg_type rows); the same statements here, under an advisory lock, one replica at a time.
 */
async function ensureAgendaSchema(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('loadplane:agenda-schema'))");
    await client.query(getCreateTableSQL(table));
    for (const column of ['start_date timestamptz', 'end_date timestamptz', 'skip_days jsonb']) {
      await client.query(`alter table "${table}" add column if not exists ${column}`);
    }
    for (const sql of getCreateIndexesSQL(table)) await client.query(sql);
    await client.query(getUpdateTimestampTriggerSQL(table));
  } finally {
    await client.end();
  }
}

export async function createAgendaJobQueue(options: AgendaQueueOptions): Promise<JobQueue> {
  await ensureAgendaSchema(options.connectionString);
  const agenda = new Agenda({
    backend: new PostgresBackend({
      connectionString: options.connectionString,
      tableName: table,
      ensureSchema: false,
      ...(options.name ? { name: options.name } : {}),
    }),
    processEvery: options.processEveryMillis ?? 5000,
    // Our handlers finish in seconds; a lock that outlives a dead replica for two minutes delays nothing durable
    // (deliveries carry their own leases), and the handlers are safe to run twice.
    defaultLockLifetime: 2 * 60_000,
  });
  agenda.on('error', (error: unknown) => options.logger.warn('agenda error', { error: String(error) }));
  return {
    define(name, handler) {
      agenda.define(name, async () => {
        await handler();
      }, { concurrency: 1 });
    },
    async every(name, intervalMillis) {
      // One schedule per name for all replicas (Agenda keeps `every` jobs unique by name).
      await agenda.every(intervalMillis, name);
    },
    async now(name) {
      await agenda.now(name);
    },
    async start() {
      await agenda.start();
    },
    async stop() {
      await agenda.stop(true);
    },
  };
}
