/**
 * Closing a PostgreSQL pool within a deadline. The pool's end waits for every connection checked out to come back; a
 * query that never returns (a lock never granted) would hold a stop, and a SIGTERM, for ever. Past the deadline the
 * close goes on without it, and the warning names what the database was still doing (from pg_stat_activity, over a
 * connection of its own), so the cause can be found.
 */
import pg from 'pg';

export interface BoundedCloseOptions {
  databaseUrl: string;
  deadlineMs: number;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** What the database's other sessions are doing now, one line each (none idle). */
export async function sessionsInFlight(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number; state: string | null; wait: string | null; seconds: number | null; query: string | null }>(
      `select pid, state, wait_event_type || ':' || wait_event as wait, extract(epoch from now() - query_start)::float8 as seconds, left(query, 300) as query
       from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and coalesce(state, '') <> 'idle'`,
    );
    return rows.map((row) => `pid ${row.pid} ${row.state ?? '?'} ${row.wait ?? ''} for ${Math.round(row.seconds ?? 0)} s: ${row.query ?? ''}`);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function closeWithin(close: () => Promise<void>, options: BoundedCloseOptions): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const closing = close();
  const timedOut = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), options.deadlineMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!timedOut) return;
  // The pool goes on ending in the background; its late error (if any) is of no use to anyone now.
  closing.catch(() => {});
  const sessions = await sessionsInFlight(options.databaseUrl).catch((error: unknown) => [`(could not read pg_stat_activity: ${String(error)})`]);
  options.warn(`the database pool did not close within ${options.deadlineMs / 1000} s: going on without the connections still in use`, { sessions });
}
