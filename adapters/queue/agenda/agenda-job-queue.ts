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

/**
 * A query fired and forgotten that fails when PostgreSQL ends the connection is a rejection nobody handles, and Bun ends
 * the process on those. Each query's promise gets a handler that does nothing; a caller that awaits it still gets the
 * rejection. (This covers the pool's own promises; a method of Agenda's that is not awaited, `unlockJob`, is guarded
 * where the backend is made.)
 */
function markQueriesHandled(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) result.catch(() => {});
    return result;
  };
}

export interface UnlockingRepository {
  unlockJob(job: unknown): Promise<void>;
}

/**
 * Agenda unlocks a job it will not run without awaiting it (JobProcessor: `this.agenda.db.unlockJob(...)`): an unlock
 * that fails with the connection is a rejected promise nobody handles, which ends the process. A lock left behind
 * expires on its own (defaultLockLifetime), so a failed unlock is a warning, never a rejection.
 */
export function guardUnlocks(repository: UnlockingRepository, logger: Pick<Logger, 'warn'>): void {
  const unlockJob = repository.unlockJob.bind(repository);
  repository.unlockJob = (job) =>
    unlockJob(job).catch((error: unknown) => logger.warn('agenda: a job lock was not released (it expires on its own)', { error: String(error) }));
}

/** The JobProcessor methods Agenda calls without awaiting them (from its interval, per job, and after each job). */
const unawaitedProcessorMethods = ['process', 'jobProcessing', 'runOrRetry'] as const;
const guardedPrototypes = new WeakSet<object>();

interface ProcessorLike {
  agenda: { emit(event: 'error', error: unknown): unknown };
}

/**
 * Agenda's job processor calls `process()` from a timer, and `jobProcessing()` and `runOrRetry(job)` from each other,
 * none of them awaited: when PostgreSQL ends the connection under a query inside them, their promise rejects with
 * nobody to handle it, which ends the process (CI saw 57P01 end the connection-loss test). Each call's promise gets a
 * handler that reports the error as Agenda's own 'error' event (logged as a warning); a caller that awaits the call still
 * gets the rejection. The processor is not exported, so its prototype is reached through a started Agenda, once.
 */
export function guardProcessor(processor: object | undefined): void {
  const prototype = processor ? Object.getPrototypeOf(processor) : null;
  if (!prototype || guardedPrototypes.has(prototype)) return;
  guardedPrototypes.add(prototype);
  for (const name of unawaitedProcessorMethods) {
    const original = prototype[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    prototype[name] = function (this: ProcessorLike, ...args: unknown[]) {
      const result = original.apply(this, args);
      if (result instanceof Promise) result.catch((error: unknown) => this.agenda.emit('error', error));
      return result;
    };
  }
}

/** PostgreSQL ended the session (a restart, a failover, pg_terminate_backend) or the socket closed under a query. */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(57P0[123]|08\d{3})$/.test(code)) return true;
  return error instanceof Error && /Connection terminated|connection ended|ECONNRESET/i.test(error.message);
}

/**
 * A pooled connection PostgreSQL has just ended can still be handed out once before the pool hears of it: the first
 * write after a restart then fails with 57P01 although the server is back. Such a loss is retried on a fresh connection
 * (twice at most); any other error, or a third loss, is the caller's.
 */
export async function retryingConnectionLoss<T>(action: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= attempts || !isConnectionLoss(error)) throw error;
    }
  }
}

const defineOn = (agenda: Agenda, name: string, handler: () => Promise<void>) =>
  agenda.define(name, async () => {
    await handler();
  }, { concurrency: 1 });

/** Nothing connects until `start`: an API-only replica (WORKERS=false) never starts it and holds no connection. */
export async function createAgendaJobQueue(options: AgendaQueueOptions): Promise<JobQueue> {
  const definitions = new Map<string, () => Promise<void>>();
  const schedules: Array<[string, number]> = [];
  let agenda: Agenda | null = null;
  let pool: pg.Pool | null = null;
  return {
    define(name, handler) {
      definitions.set(name, handler);
      if (agenda) defineOn(agenda, name, handler);
    },
    async every(name, intervalMillis) {
      // One schedule per name for all replicas (Agenda keeps `every` jobs unique by name).
      const started = agenda;
      if (started) await retryingConnectionLoss(() => started.every(intervalMillis, name));
      else schedules.push([name, intervalMillis]);
    },
    async now(name) {
      if (!agenda) throw new Error(`the job queue is not started; cannot run ${name}`);
      const started = agenda;
      await retryingConnectionLoss(() => started.now(name));
    },
    async start() {
      await ensureAgendaSchema(options.connectionString);
      // Our own pool, with listeners: the backend's pool and its LISTEN client emit 'error' when PostgreSQL ends a
      // connection (a restart, a failover, 57P01), and an 'error' nobody listens to ends the process. The query in
      // flight fails on its own; the pool drops the client and the channel reconnects.
      pool = new pg.Pool({ connectionString: options.connectionString, max: 4 });
      pool.on('error', (error) => options.logger.warn('agenda: a PostgreSQL connection was lost', { error: String(error) }));
      markQueriesHandled(pool);
      const backend = new PostgresBackend({
        pool,
        tableName: table,
        ensureSchema: false,
        ...(options.name ? { name: options.name } : {}),
      });
      guardUnlocks(backend.repository as unknown as UnlockingRepository, options.logger);
      backend.notificationChannel?.on('error', (error: unknown) =>
        options.logger.warn('agenda: the notification channel lost its connection', { error: String(error) }),
      );
      const started = new Agenda({
        backend,
        processEvery: options.processEveryMillis ?? 5000,
        // Our handlers finish in seconds; a lock that outlives a dead replica for two minutes delays nothing durable
        // (deliveries carry their own leases), and the handlers are safe to run twice.
        defaultLockLifetime: 2 * 60_000,
      });
      started.on('error', (error: unknown) => options.logger.warn('agenda error', { error: String(error) }));
      for (const [name, handler] of definitions) defineOn(started, name, handler);
      await started.start();
      guardProcessor((started as unknown as { jobProcessor?: object }).jobProcessor);
      for (const [name, millis] of schedules) await started.every(millis, name);
      agenda = started;
    },
    async stop() {
      await agenda?.stop(true);
      agenda = null;
      // A pool handed to the backend is ours to close (the backend leaves it open).
      await pool?.end().catch(() => {});
      pool = null;
    },
  };
}
