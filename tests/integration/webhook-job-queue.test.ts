/**
 * The job queue under the webhook worker: Agenda on a real PostgreSQL server (one recurring schedule shared by two
 * queues, never two runs at once; `now` runs promptly), and the service's collector delivering an outbox row that no
 * wake-up announced (Agenda with DATABASE_URL, the in-process timer queue on PGlite).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { createAgendaJobQueue } from '../../adapters/queue/agenda/agenda-job-queue.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../helpers/postgres-server.ts';
import { startTestService } from '../helpers/test-service.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import { waitFor } from '../helpers/process-probes.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('Agenda job queue on PostgreSQL', () => {
  test('a recurring job shared by two queues runs, never twice at once; now() runs a job promptly', async () => {
    const postgres = await startPostgresServer();
    if (!postgres) {
      requireOrSkip(POSTGRES_SKIP_MESSAGE, 'the Agenda job queue test'); // fails under CI; says why and skips elsewhere
      return;
    }
    cleanups.push(() => postgres.stop());
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const queues = [];
    for (const name of ['replica-a', 'replica-b']) {
      const queue = await createAgendaJobQueue({ connectionString: postgres.url, name, processEveryMillis: 100, logger: silentLogger });
      queue.define('tick', async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs++;
        await Bun.sleep(150);
        active--;
      });
      queues.push(queue);
    }
    for (const queue of queues) await queue.every('tick', 200);
    for (const queue of queues) await queue.start();
    try {
      await waitFor(() => runs >= 4, 30_000, () => `4 runs of the recurring job (got ${runs})`);
      expect(maxActive).toBe(1);

      let once = 0;
      queues[0]!.define('once', async () => {
        once++;
      });
      await queues[0]!.now('once');
      await waitFor(() => once > 0, 30_000, 'the job now() queued');
      expect(once).toBe(1);
    } finally {
      for (const queue of queues) await queue.stop();
    }
  }, 30_000);
});

describe("the service's collector", () => {
  test('delivers an outbox row that no wake-up announced, on its schedule', async () => {
    const receiver = startWebhookReceiver();
    cleanups.push(() => receiver.stop());
    const ts = await startTestService({
      env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
      boot: { pluginConfigOverrides: { 'identity-embedded': { passwordIterations: 1000 }, 'notify-webhook': { collectEveryMillis: 1000 } } },
    });
    cleanups.push(() => ts.stop());
    const owner = await ts.createUser('collected');
    const workspace = (await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string };
    const created = await ts.request('/api/v1/webhooks', { method: 'POST', token: owner, json: { url: `${receiver.url}/c`, events: ['test.started'] } });
    expect(created.status).toBe(201);
    const taskId = crypto.randomUUID();
    // Written behind the service's back: no hook, no NOTIFY; only the recurring collector can find it.
    await sqlOf(ts.service.database).all("insert into outbox (workspace_id, event, task_id, payload) values (?, 'run.started', ?, ?::jsonb)", [
      workspace.id,
      taskId,
      JSON.stringify({ task_id: taskId, test_id: null, machine_ids: [] }),
    ]);
    const [hook] = await receiver.waitFor((all) => all.length === 1, 15_000);
    expect(hook!.body).toMatchObject({ event: 'test.started', data: { task_id: taskId } });
  }, 60_000);
});
