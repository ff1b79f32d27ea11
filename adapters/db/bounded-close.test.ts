/** A PostgreSQL pool's close is bounded: a query that never returns no longer holds a stop, and the warning names it. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import pg from 'pg';
import { requireOrSkip } from '../../tests/helpers/k6-binary.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../../tests/helpers/postgres-server.ts';
import { closeWithin, sessionsInFlight } from './bounded-close.ts';

let server: PostgresServer | null = null;
beforeAll(async () => {
  server = await startPostgresServer();
}, 120_000);
afterAll(() => server?.stop());

test('a close that finishes is awaited and says nothing', async () => {
  const warnings: string[] = [];
  let closed = false;
  await closeWithin(async () => void (closed = true), { databaseUrl: 'postgres://unused', deadlineMs: 60_000, warn: (message) => warnings.push(message) });
  expect(closed).toBe(true);
  expect(warnings).toEqual([]);
});

test('a close held by a query that waits for a lock goes on past its deadline, naming the waiting query', async () => {
  if (!requireOrSkip(server ? null : POSTGRES_SKIP_MESSAGE, 'the bounded close')) return;
  const holder = new pg.Client({ connectionString: server!.url });
  const waiter = new pg.Client({ connectionString: server!.url });
  await holder.connect();
  await waiter.connect();
  try {
    await holder.query('select pg_advisory_lock(4242)');
    // Never granted while the holder keeps the lock: the pool's end would wait for it for ever.
    const waiting = waiter.query('select pg_advisory_lock(4242) as waiting_for_the_lock').catch(() => null);
    let sessions: string[] = [];
    for (let tries = 0; tries < 200 && !sessions.some((line) => line.includes('waiting_for_the_lock')); tries++) {
      sessions = await sessionsInFlight(server!.url);
    }
    expect(sessions.find((line) => line.includes('waiting_for_the_lock'))).toMatch(/Lock:advisory/);

    const warnings: { message: string; fields: Record<string, unknown> }[] = [];
    await closeWithin(() => waiting.then(() => {}), { databaseUrl: server!.url, deadlineMs: 200, warn: (message, fields) => warnings.push({ message, fields }) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('did not close within 0.2 s');
    expect(String(warnings[0]!.fields.sessions)).toContain('waiting_for_the_lock');
  } finally {
    await holder.end();
    await waiter.end().catch(() => {});
  }
});
