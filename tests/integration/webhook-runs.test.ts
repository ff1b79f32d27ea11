/** Real runs on a real agent notify a real loopback receiver through the service's own worker, within a second. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Stripe from 'stripe';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

let fixture: ServiceWithAgent;
let receiver: WebhookReceiver;
const secrets: Record<string, string> = {};

async function call(path: string, json?: unknown, method = json === undefined ? 'GET' : 'POST') {
  return fixture.ts.request(path, { method, token: fixture.jwt, ...(json === undefined ? {} : { json }) });
}

async function runScript(script: string) {
  const created = await call('/api/v1/tests', { name: 'hooked', tool: 'custom', script });
  const { id: testId } = (await created.json()) as { id: string };
  const task = await call('/api/v1/tasks', { testId });
  expect(task.status).toBe(202);
  return { taskId: ((await task.json()) as { id: string }).id, testId };
}

async function finishedAt(taskId: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const task = (await (await call(`/api/v1/tasks/${taskId}`)).json()) as { status: string; finished_at?: string | null };
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return Date.now();
    await Bun.sleep(10);
  }
  throw new Error('the run never finished');
}

beforeAll(async () => {
  receiver = startWebhookReceiver();
  fixture = await startServiceWithAgent('hooker', { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  for (const path of ['/first', '/second']) {
    const response = await call('/api/v1/webhooks', { url: `${receiver.url}${path}`, events: ['test.started', 'test.completed', 'test.failed'] });
    expect(response.status).toBe(201);
    secrets[path] = ((await response.json()) as { secret: string }).secret;
  }
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
  await receiver?.stop();
});

describe('webhooks from real runs', () => {
  test('test.started and test.completed reach every endpoint within a second, signed, one envelope id per event', async () => {
    const { taskId, testId } = await runScript('#!/bin/sh\necho hello\n');
    const done = await finishedAt(taskId);
    const forTask = () => receiver.received.filter((r) => r.body.data.task_id === taskId);
    await receiver.waitFor(() => forTask().length === 4, 5000);
    const completed = forTask().filter((r) => r.body.event === 'test.completed');
    // First-attempt latency: the worker is woken by the transition, not by its 20-second poll.
    for (const hook of completed) expect(hook.at - done).toBeLessThan(1000);
    for (const event of ['test.started', 'test.completed']) {
      const hooks = forTask().filter((r) => r.body.event === event);
      expect(hooks.map((h) => h.path).sort()).toEqual(['/first', '/second']);
      expect(hooks[0]!.body.id).toBe(hooks[1]!.body.id);
      expect(hooks[0]!.headers['x-service-delivery']).not.toBe(hooks[1]!.headers['x-service-delivery']);
      for (const hook of hooks) {
        expect(hook.headers['x-service-event']).toBe(event);
        await Stripe.webhooks.constructEventAsync(hook.raw, hook.headers['x-service-signature']!, secrets[hook.path]!);
        expect(hook.body.data).toMatchObject({ task_id: taskId, test_id: testId });
        expect(typeof hook.body.data.machine_id).toBe('string');
      }
    }
    expect(completed[0]!.body.data).toMatchObject({ status: 'completed', log_url: `${fixture.ts.url}/api/v1/tasks/${taskId}/log-stream` });
    expect(typeof completed[0]!.body.data.duration_ms).toBe('number');
  }, 30_000);

  test('a failing run sends test.failed', async () => {
    const { taskId } = await runScript('#!/bin/sh\necho broken\nexit 3\n');
    await finishedAt(taskId);
    const hooks = await receiver.waitFor((all) => all.filter((r) => r.body.data.task_id === taskId && r.body.event === 'test.failed').length === 2, 5000);
    const failed = hooks.find((r) => r.body.data.task_id === taskId && r.body.event === 'test.failed')!;
    expect(failed.body.data.status).toBe('failed');
  }, 30_000);

  test('Send test: the ping arrives at once and lands in the history as delivered', async () => {
    const list = (await (await call('/api/v1/webhooks')).json()) as { id: string; url: string }[];
    const first = list.find((w) => w.url.endsWith('/first'))!;
    const ping = await call(`/api/v1/webhooks/${first.id}/test`, {});
    expect(ping.status).toBe(202);
    const { id } = (await ping.json()) as { id: string };
    await receiver.waitFor((all) => all.some((r) => r.headers['x-service-delivery'] === id), 2000);
    for (let i = 0; i < 100; i++) {
      const history = (await (await call(`/api/v1/webhooks/${first.id}/deliveries`)).json()) as { id: string; state: string }[];
      if (history.find((d) => d.id === id)?.state === 'delivered') return;
      await Bun.sleep(20);
    }
    throw new Error('the ping never showed as delivered');
  }, 30_000);
});
