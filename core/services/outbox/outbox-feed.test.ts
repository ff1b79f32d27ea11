/**
 * The outbox consumed by two consumers at their own pace: one stopped (and failing once) while the other keeps
 * going; the slow one later catches up without a loss or a duplicate. PGlite in memory, or PostgreSQL with
 * DATABASE_URL; and on PostgreSQL in either pass (a database of its own when the file runs on PGlite), where a
 * consumer's open transaction holds up nobody else and a row that commits late is still read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { postgresOrSkip, type PostgresServer } from '../../../tests/helpers/postgres-server.ts';
import { startTestService, type TestService, usesPostgres } from '../../../tests/helpers/test-service.ts';
import type { OutboxFeed, OutboxRecord } from '../../ports/outbox-feed.ts';
import { type Sql, sqlOf, transaction } from '../sql.ts';
import { createOutboxFeed } from './outbox-feed.ts';

/** The service the tests below use (the file's own, or the PostgreSQL one of the last block). */
let ts: TestService;
let feed: OutboxFeed;
let workspaceId: string;
let base: TestService;

async function use(service: TestService): Promise<void> {
  ts = service;
  feed = createOutboxFeed(service.service.database);
  workspaceId = service.service.bootstrapWorkspaceId;
  // Each consumer's own writes: the primary key turns any row handed over twice into a failed transaction.
  await sqlOf(service.service.database).all('create table if not exists consumed_by_test (consumer text, outbox_id bigint, primary key (consumer, outbox_id))');
}

const startService = (database?: string) =>
  startTestService({ ...(database ? { database } : {}), boot: { pluginConfigOverrides: { 'identity-embedded': { passwordIterations: 1000 } } } });

beforeAll(async () => {
  base = await startService();
  await use(base);
});
afterAll(() => base.stop());

const insertRow = (sql: Sql, event: string) =>
  sql.all<{ id: string }>("insert into outbox (workspace_id, event, task_id, payload) values (?, ?, ?, '{}'::jsonb) returning id", [
    workspaceId,
    event,
    crypto.randomUUID(),
  ]);

async function write(events: string[]): Promise<void> {
  for (const event of events) await insertRow(sqlOf(ts.service.database), event);
}

/** Every row of this test after `from`, as committed (ids are final only at commit), optionally of some events. */
async function rowsAfter(from: number, events?: string[]): Promise<number[]> {
  const rows = await sqlOf(ts.service.database).all<{ id: string; event: string }>('select id, event from outbox where id > ? order by id', [from]);
  return rows.filter((row) => !events || events.includes(row.event)).map((row) => Number(row.id));
}

const record = (consumer: string) => async (rows: readonly OutboxRecord[], tx: Sql) => {
  for (const row of rows) await tx.all('insert into consumed_by_test (consumer, outbox_id) values (?, ?)', [consumer, row.id]);
};

async function drain(consumer: string, options: { events?: string[]; limit?: number } = {}): Promise<void> {
  while ((await feed.consume(consumer, options, record(consumer))) > 0) {
    // Batch after batch until caught up.
  }
}

const consumedBy = async (consumer: string) =>
  (await sqlOf(ts.service.database).all<{ outbox_id: string }>('select outbox_id from consumed_by_test where consumer = ? order by outbox_id', [consumer])).map(
    (row) => Number(row.outbox_id),
  );

const cursorOf = async (consumer: string) =>
  Number((await sqlOf(ts.service.database).all<{ last_id: string }>('select last_id from outbox_cursors where consumer = ?', [consumer]))[0]!.last_id);

test('two consumers at their own pace: the stopped one catches up later, nothing lost, nothing twice', async () => {
  const [{ start }] = (await sqlOf(ts.service.database).all<{ start: string | null }>('select max(id) as start from outbox')) as [{ start: string | null }];
  await feed.register('fast');
  await feed.register('slow');
  // A consumer registered now starts at the end: what was written before is not news to it.
  expect(await cursorOf('fast')).toBe(Number(start ?? 0));

  await write(['run.created', 'run.started', 'assignment.started', 'run.finished', 'run.started', 'run.finished', 'run.created']);
  // The slow consumer fails in the middle of its first batch: its writes and its cursor roll back together.
  const failing = async (rows: readonly OutboxRecord[], tx: Sql) => {
    await record('slow')(rows, tx);
    throw new Error('the slow consumer crashed');
  };
  await expect(feed.consume('slow', { events: ['run.finished'] }, failing)).rejects.toThrow('the slow consumer crashed');
  expect(await consumedBy('slow')).toEqual([]);

  // The fast one keeps going, in small batches, while the slow one is stopped.
  await drain('fast', { limit: 2 });
  await write(['run.started', 'run.finished', 'assignment.finished']);
  await drain('fast', { limit: 2 });
  const all = await rowsAfter(Number(start ?? 0));
  expect(await consumedBy('fast')).toEqual(all);
  expect(await cursorOf('fast')).toBe(all.at(-1)!);
  expect(await consumedBy('slow')).toEqual([]);

  // The slow one catches up: only the events it wants, each once; its cursor ends past the rows it does not want.
  await drain('slow', { events: ['run.finished'], limit: 1 });
  expect(await consumedBy('slow')).toEqual(await rowsAfter(Number(start ?? 0), ['run.finished']));
  expect(await cursorOf('slow')).toBe(all.at(-1)!);
  // Caught up: nothing more, however often it asks; the fast one's rows are untouched by the slow one's pace.
  expect(await feed.consume('slow', { events: ['run.finished'] }, record('slow'))).toBe(0);
  expect(await consumedBy('fast')).toEqual(all);
});

test('passes of one consumer at once (two replicas) hand each row over once', async () => {
  await feed.register('racer');
  const from = await cursorOf('racer');
  await write(Array.from({ length: 30 }, (_, i) => (i % 2 ? 'run.started' : 'run.finished')));
  await Promise.all([drain('racer', { limit: 4 }), drain('racer', { limit: 4 }), drain('racer', { limit: 7 })]);
  expect(await consumedBy('racer')).toEqual(await rowsAfter(from));
});

describe('PostgreSQL', () => {
  let server: PostgresServer | null = null;
  let own: TestService | null = null;
  beforeAll(async () => {
    if (usesPostgres()) return; // the file's own service is on PostgreSQL already
    server = await postgresOrSkip();
    if (!server) return;
    own = await startService(server.url);
    await use(own);
  }, 120_000);
  afterAll(async () => {
    await own?.stop();
    await server?.stop();
  });

  test('an open consumer transaction holds up no other consumer; a row that commits late is not skipped', async () => {
    if (!usesPostgres() && !own) return; // no PostgreSQL here (CI always has one: postgresOrSkip throws there)
    await openTransactionAndLateCommit();
  });
});

async function openTransactionAndLateCommit(): Promise<void> {
  const db = ts.service.database;
  await feed.register('open');
  await feed.register('steady');
  const from = await cursorOf('steady');
  await write(['run.finished']);

  // "open" is inside its handler, transaction open, while "steady" reads on.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const stalled = feed.consume('open', {}, async (rows, tx) => {
    await record('open')(rows, tx);
    entered();
    await gate;
  });
  await inside;
  await write(['run.started']);
  await drain('steady');
  expect(await consumedBy('steady')).toEqual(await rowsAfter(from));

  // A writer that began first and commits last: its row must still reach a consumer already past the later one.
  let commit!: () => void;
  const held = new Promise<void>((resolve) => (commit = resolve));
  let inserted!: () => void;
  const wrote = new Promise<void>((resolve) => (inserted = resolve));
  const late = transaction(db, async (tx) => {
    await insertRow(tx, 'run.finished');
    inserted();
    await held;
  });
  await wrote;
  await write(['run.finished']);
  await drain('steady');
  commit();
  await late;
  await drain('steady');
  expect(await consumedBy('steady')).toEqual(await rowsAfter(from));

  release();
  await stalled;
  await drain('open');
  expect(await consumedBy('open')).toEqual(await rowsAfter(from));
}
