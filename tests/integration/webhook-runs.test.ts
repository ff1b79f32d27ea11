/**
 * Real runs on a real agent notify a real loopback receiver through the service's own worker, woken by each run
 * transition: the collector's poll is set an hour apart, so only the wake-up can deliver while a test waits.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Stripe from 'stripe';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { waitFor } from '../helpers/process-probes.ts';
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

async function finished(taskId: string): Promise<void> {
  await waitFor(
    async () => ['completed', 'failed', 'cancelled'].includes(((await (await call(`/api/v1/tasks/${taskId}`)).json()) as { status: string }).status),
    60_000,
    `run ${taskId} to finish`,
  );
}

beforeAll(async () => {
  receiver = startWebhookReceiver();
  fixture = await startServiceWithAgent('hooker', {
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    // The collector's poll is an hour apart (at most one sweep at start): within a test only a wake-up sends anything.
    pluginConfig: { 'notify-webhook': { collectEveryMillis: 3_600_000 } },
  });
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
  test('test.started and test.completed reach every endpoint on the transition\'s wake-up, signed, one envelope id per event', async () => {
    const { taskId, testId } = await runScript('#!/bin/sh\necho hello\n');
    await finished(taskId);
    const forTask = () => receiver.received.filter((r) => r.body.data.task_id === taskId);
    // The worker is woken by the transition, not by its poll (an hour away): the bound only ends a wait that would fail.
    await receiver.waitFor(() => forTask().length === 4, 30_000);
    const completed = forTask().filter((r) => r.body.event === 'test.completed');
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
  }, 120_000);

  test('a failing run sends test.failed', async () => {
    const { taskId } = await runScript('#!/bin/sh\necho broken\nexit 3\n');
    await finished(taskId);
    const hooks = await receiver.waitFor((all) => all.filter((r) => r.body.data.task_id === taskId && r.body.event === 'test.failed').length === 2, 30_000);
    const failed = hooks.find((r) => r.body.data.task_id === taskId && r.body.event === 'test.failed')!;
    expect(failed.body.data.status).toBe('failed');
  }, 120_000);

  test('Send test: the ping is sent on its own wake-up and lands in the history as delivered', async () => {
    const list = (await (await call('/api/v1/webhooks')).json()) as { id: string; url: string }[];
    const first = list.find((w) => w.url.endsWith('/first'))!;
    const ping = await call(`/api/v1/webhooks/${first.id}/test`, {});
    expect(ping.status).toBe(202);
    const { id } = (await ping.json()) as { id: string };
    // Queued by hand, sent on its wake-up (the poll is an hour away).
    await receiver.waitFor((all) => all.some((r) => r.headers['x-service-delivery'] === id), 30_000);
    const state = async () =>
      ((await (await call(`/api/v1/webhooks/${first.id}/deliveries`)).json()) as { id: string; state: string }[]).find((d) => d.id === id)?.state;
    await waitFor(async () => (await state()) === 'delivered', 30_000, 'the ping to show as delivered');
  }, 120_000);
});
