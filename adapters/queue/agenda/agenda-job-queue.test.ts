/**
 * Agenda on PostgreSQL when the server ends its connections (a restart, a failover: 57P01): the replica keeps running
 * and its jobs run again. Before, the backend's pool and LISTEN client emitted 'error' with nobody listening, which
 * ended the process (seen as an unhandled error when a test database was dropped under a running queue).
 */
import { afterAll, expect, test } from 'bun:test';
import pg from 'pg';
import type { Logger } from '../../../core/kernel/logger.ts';
import { silentLogger } from '../../../core/kernel/logger.ts';
import { requireOrSkip } from '../../../tests/helpers/k6-binary.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../../../tests/helpers/postgres-server.ts';
import { waitFor } from '../../../tests/helpers/process-probes.ts';
import { createAgendaJobQueue, guardProcessor, guardUnlocks, retryingConnectionLoss } from './agenda-job-queue.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('connections ended by the server are logged, not fatal, and jobs run again afterwards', async () => {
  const postgres = await startPostgresServer();
  if (!requireOrSkip(postgres ? null : POSTGRES_SKIP_MESSAGE, 'the Agenda connection-loss test')) return;
  cleanups.push(() => postgres!.stop());
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (message: string) => void warnings.push(message), child: () => logger };
  const queue = await createAgendaJobQueue({ connectionString: postgres!.url, name: 'loss', processEveryMillis: 100, logger });
  let runs = 0;
  queue.define('job', async () => {
    runs++;
  });
  await queue.start();
  cleanups.push(() => queue.stop());
  await queue.now('job');
  await waitFor(() => runs === 1, 30_000, 'the first run');

  // What a restart does to every session of the database: terminate them (the pool's idle clients and the LISTEN one).
  const admin = new pg.Client({ connectionString: postgres!.url });
  await admin.connect();
  try {
    const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    expect(ended.rowCount).toBeGreaterThan(0);
  } finally {
    await admin.end();
  }
  await waitFor(() => warnings.some((w) => w.startsWith('agenda:')), 30_000, 'the lost connection logged');

  await queue.now('job');
  await waitFor(() => runs === 2, 30_000, 'a run after the connections were lost');
});

test("Agenda's unawaited unlock never rejects: a lost connection during it is a warning (CI saw it end the test process)", async () => {
  const warnings: string[] = [];
  const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  const unlocked: unknown[] = [];
  const repository = {
    async unlockJob(job: unknown) {
      if (job === 'lost') throw lost;
      unlocked.push(job);
    },
  };
  guardUnlocks(repository, { warn: (message: string) => void warnings.push(message) });
  // As Agenda calls it: not awaited. A rejection here would fail this test as an unhandled error.
  void repository.unlockJob('lost');
  await repository.unlockJob('kept');
  await waitFor(() => warnings.length === 1, 10_000, 'the warning');
  expect(warnings[0]).toContain('not released');
  expect(unlocked).toEqual(['kept']);
});

test("Agenda's unawaited processor calls never reject: a lost connection inside them becomes Agenda's 'error' event", async () => {
  const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  const emitted: unknown[] = [];
  class Processor {
    agenda = { emit: (_event: 'error', error: unknown) => void emitted.push(error) };
    async process() {
      throw lost;
    }
    async jobProcessing() {
      return 'processed';
    }
  }
  const processor = new Processor();
  guardProcessor(processor);
  guardProcessor(new Processor()); // a second queue in the process: the prototype is wrapped once
  // As Agenda calls it from its interval: not awaited. A rejection here would fail this test as an unhandled error.
  void processor.process();
  await waitFor(() => emitted.length === 1, 10_000, 'the error event');
  expect(emitted).toEqual([lost]);
  // A caller that awaits still gets the result, or the rejection.
  expect(await processor.jobProcessing()).toBe('processed');
  await expect(processor.process()).rejects.toBe(lost);
});

test('a write on a connection PostgreSQL just ended is retried on a fresh one; other errors and a third loss are the caller’s', async () => {
  const lost = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  let calls = 0;
  expect(
    await retryingConnectionLoss(async () => {
      if (++calls === 1) throw lost();
      return 'saved';
    }),
  ).toBe('saved');
  expect(calls).toBe(2);

  const denied = Object.assign(new Error('permission denied'), { code: '42501' });
  calls = 0;
  await expect(
    retryingConnectionLoss(async () => {
      calls++;
      throw denied;
    }),
  ).rejects.toBe(denied);
  expect(calls).toBe(1);

  calls = 0;
  await expect(
    retryingConnectionLoss(async () => {
      calls++;
      throw lost();
    }),
  ).rejects.toMatchObject({ code: '57P01' });
  expect(calls).toBe(3);
});
