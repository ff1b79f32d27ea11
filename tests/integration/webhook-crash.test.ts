/**
 * Crash safety of webhook deliveries with the real service process: kill -9 while some attempts are in flight (the
 * receiver holds their answers) and others are still waiting (the test.completed of runs whose test.started is held),
 * start the service again, and every delivery arrives with a 2xx answer; a delivery is received more than once only
 * if one of its attempts was in flight at the kill.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

const receiver = startWebhookReceiver();
let service: ServiceProcess | null = null;
let dataDir = '';

afterAll(async () => {
  await service?.stop();
  await receiver.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('kill -9 mid-delivery, restart: every delivery arrives, duplicates only where an attempt was in flight', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-webhook-crash-'));
  service = await startServiceProcess({
    env: {
      DATA_DIR: dataDir,
      // The in-process local agent runs real runs in the admin's workspace (and dies with the service).
      LOCAL_AGENT: 'true',
      BOOTSTRAP_ADMIN_USERNAME: 'admin',
      BOOTSTRAP_ADMIN_PASSWORD: 'crash-admin-password',
      AUTH_CLIENT_SECRET: 'crash-client-secret',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    },
  });
  const jwt = await passwordGrant(service.url, { username: 'admin', password: 'crash-admin-password', clientSecret: 'crash-client-secret' });
  const call = (path: string, method = 'GET', json?: unknown) =>
    fetch(`${service!.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${jwt}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });

  // Before the kill the endpoint holds every answer: attempts stay in flight.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  receiver.respond = async () => {
    await held;
    return new Response('ok');
  };
  const created = await call('/webhooks', 'POST', { url: `${receiver.url}/crash`, events: ['test.started', 'test.completed'] });
  expect(created.status).toBe(201);
  const webhook = (await created.json()) as { id: string };
  const expected: string[] = [];
  for (let i = 0; i < 20; i++) {
    const ping = await call(`/webhooks/${webhook.id}/test`, 'POST', {});
    expect(ping.status).toBe(202);
    expected.push(((await ping.json()) as { id: string }).id);
  }
  // Real runs: their test.started attempts are held, so their test.completed deliveries wait behind them.
  const test = (await (await call('/tests', 'POST', { name: 'crash', tool: 'custom', script: '#!/bin/sh\necho hi\n' })).json()) as { id: string };
  const tasks: string[] = [];
  for (let i = 0; i < 3; i++) {
    const task = await call('/tasks', 'POST', { testId: test.id });
    expect(task.status).toBe(202);
    tasks.push(((await task.json()) as { id: string }).id);
  }
  for (const id of tasks) {
    for (let i = 0; ; i++) {
      const view = (await (await call(`/tasks/${id}`)).json()) as { status: string };
      if (view.status === 'completed') break;
      if (i > 600) throw new Error(`run ${id} did not complete: ${view.status}`);
      await Bun.sleep(50);
    }
  }
  await receiver.waitFor((all) => all.length >= 5, 60_000);
  await service.kill('SIGKILL');
  const inFlight = new Set(receiver.received.map((r) => r.headers['x-service-delivery']!));
  release();
  receiver.respond = () => new Response('ok');

  service = await service.restart();
  // Embedded: the restarted process frees the dead one's leases at once; on PostgreSQL they expire (30 s).
  // Every run's test.started and test.completed arrived, whatever their state at the kill.
  const runEvents = await receiver.waitFor(
    (all) => tasks.every((id) => ['test.started', 'test.completed'].every((event) => all.some((r) => r.body.data.task_id === id && r.body.event === event))),
    90_000,
  );
  const completedBeforeKill = [...inFlight].filter((id) => runEvents.some((r) => r.headers['x-service-delivery'] === id && r.body.event === 'test.completed'));
  expect(completedBeforeKill).toHaveLength(0); // they were waiting, not in flight: the kill left them pending

  // The history agrees: every delivery ends delivered, each with its attempts.
  let deliveries: { id: string; state: string }[] = [];
  for (let i = 0; i < 900; i++) {
    deliveries = (await (await call(`/webhooks/${webhook.id}/deliveries`)).json()) as { id: string; state: string }[];
    if (deliveries.length === 26 && deliveries.every((d) => d.state === 'delivered')) break;
    await Bun.sleep(100);
  }
  expect(deliveries.map((d) => d.state)).toEqual(Array(26).fill('delivered'));
  for (const id of expected) expect(deliveries.map((d) => d.id)).toContain(id);

  // Every delivery arrived; any delivery received twice had an attempt in flight at the kill.
  const counts = new Map<string, number>();
  for (const hook of receiver.received) counts.set(hook.headers['x-service-delivery']!, (counts.get(hook.headers['x-service-delivery']!) ?? 0) + 1);
  for (const id of expected) expect(counts.get(id) ?? 0).toBeGreaterThanOrEqual(1);
  for (const [id, count] of counts) if (count > 1) expect(inFlight.has(id)).toBe(true);
  expect(inFlight.size).toBeGreaterThanOrEqual(5);
}, 180_000);
