/**
 * Webhook deliveries end to end against a real loopback receiver, driven by workers with a controllable clock:
 * envelope and headers per the spec (verified by stripe), one envelope id for every endpoint, the retry schedule,
 * failures (redirect, timeout, connection error), bounded excerpts, the URL checked again at delivery, and two
 * workers that never send one attempt twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import Stripe from 'stripe';
import { createNodeWebhookTransport } from '../../adapters/net/node-webhook-transport.ts';
import { createSecretBox } from '../../core/domain/secret-box.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import type { WebhookTransport } from '../../core/ports/webhook-transport.ts';
import { createOutboxFeed } from '../../core/services/outbox/outbox-feed.ts';
import { createOutboundUrlGuard, parseAllowList } from '../../core/services/webhooks/outbound-url-guard.ts';
import { createDeliveryWorker } from '../../plugins/notify-webhook/delivery-worker.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

let ts: TestService;
let receiver: WebhookReceiver;
let owner: string;
let workspaceId: string;
let counter = 0;
let clock = Date.now();
const now = () => new Date(clock);

const realTransport = createNodeWebhookTransport();
const dns: Record<string, string[]> = { 'pinned.test': ['127.0.0.2', '127.0.0.1'], 'rebind.test': ['10.0.0.7'] };
const guard = createOutboundUrlGuard({
  resolver: { resolve: async (name) => dns[name] ?? Promise.reject(new Error('ENOTFOUND')) },
  allow: parseAllowList(['127.0.0.0/30']),
});

async function worker(options: { transport?: WebhookTransport; timeoutMillis?: number } = {}) {
  return createDeliveryWorker({
    db: ts.service.database,
    outbox: createOutboxFeed(ts.service.database),
    guard,
    transport: options.transport ?? realTransport,
    secrets: await createSecretBox(ts.service.secretKey),
    publicUrl: 'https://loadplane.example',
    logger: silentLogger,
    now,
    timeoutMillis: options.timeoutMillis ?? 10_000,
  });
}

async function createHook(path: string, events: string[], extra: Record<string, unknown> = {}) {
  const response = await ts.request('/api/v1/webhooks', { method: 'POST', token: owner, json: { url: `${receiver.url}${path}`, events, ...extra } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

async function outbox(event: 'run.started' | 'run.finished', payload: Record<string, unknown>) {
  const taskId = crypto.randomUUID();
  await sqlOf(ts.service.database).all('insert into outbox (workspace_id, event, task_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?)', [
    workspaceId,
    event,
    taskId,
    JSON.stringify({ task_id: taskId, test_id: crypto.randomUUID(), machine_ids: [crypto.randomUUID()], ...payload }),
    now(),
  ]);
  return taskId;
}

interface DeliveryView {
  id: string;
  state: string;
  attempt_count: number;
  next_attempt_at: string | null;
  envelope: { id: string };
  attempts: { attempted_at: string; outcome: string; status_code: number | null; error: string | null; response_excerpt: string | null; duration_ms: number }[];
}

const deliveries = async (webhookId: string) =>
  (await (await ts.request(`/api/v1/webhooks/${webhookId}/deliveries`, { token: owner })).json()) as DeliveryView[];

beforeAll(async () => {
  // The service's own worker is off: these tests drive workers whose clock they control.
  ts = await startTestService({
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    boot: { pluginConfigOverrides: { 'identity-embedded': { passwordIterations: 1000 }, 'notify-webhook': { workers: false } } },
  });
  receiver = startWebhookReceiver();
});
beforeEach(async () => {
  clock = Date.now();
  receiver.received.length = 0;
  receiver.respond = () => new Response('ok');
  owner = await ts.createUser(`deliverer${++counter}`);
  workspaceId = ((await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string }).id;
});
afterAll(async () => {
  await receiver.stop();
  await ts.stop();
});

describe('delivery', () => {
  test('one envelope per event, one delivery per subscribed endpoint, headers per the spec, signatures stripe accepts', async () => {
    const a = await createHook('/a', ['test.completed']);
    const b = await createHook('/b', ['test.completed', 'test.failed']);
    await createHook('/started-only', ['test.started']);
    await createHook('/disabled', ['test.completed'], { enabled: false });
    const taskId = await outbox('run.finished', { status: 'completed', duration_ms: 1234.4, error: null });
    await (await worker()).collect();

    expect(receiver.received.map((r) => r.path).sort()).toEqual(['/a', '/b']);
    const [first, second] = receiver.received;
    expect(first!.body.id).toBe(second!.body.id);
    expect(first!.headers['x-service-delivery']).not.toBe(second!.headers['x-service-delivery']);
    for (const hook of receiver.received) {
      const secret = hook.path === '/a' ? a.secret : b.secret;
      expect(hook.headers['x-service-event']).toBe('test.completed');
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const event = (await Stripe.webhooks.constructEventAsync(hook.raw, hook.headers['x-service-signature']!, secret)) as unknown;
      expect(event).toMatchObject({
        event: 'test.completed',
        tenant_id: workspaceId,
        data: { task_id: taskId, status: 'completed', duration_ms: 1234, log_url: `https://loadplane.example/api/v1/tasks/${taskId}/log-stream` },
      });
      expect(Object.keys(hook.body).sort()).toEqual(['created_at', 'data', 'event', 'id', 'tenant_id']);
      expect(hook.body.data).toHaveProperty('test_id');
      expect(hook.body.data).toHaveProperty('machine_id');
      await expect(Stripe.webhooks.constructEventAsync(hook.raw, hook.headers['x-service-signature']!, hook.path === '/a' ? b.secret : a.secret)).rejects.toThrow();
    }
    const [delivered] = await deliveries(a.id);
    expect(delivered).toMatchObject({ state: 'delivered', attempt_count: 1, next_attempt_at: null });
    expect(delivered!.id).toBe(receiver.received.find((r) => r.path === '/a')!.headers['x-service-delivery']!);
    expect(delivered!.attempts).toHaveLength(1);
    expect(delivered!.attempts[0]).toMatchObject({ outcome: 'success', status_code: 200, response_excerpt: 'ok', error: null });

    // The outbox row was consumed once: another pass sends nothing.
    await (await worker()).collect();
    expect(receiver.received).toHaveLength(2);
  });

  test('run.started is test.started; a failed run and a cancelled one are test.failed with their status', async () => {
    await createHook('/all', ['test.started', 'test.completed', 'test.failed']);
    const started = await outbox('run.started', {});
    const failed = await outbox('run.finished', { status: 'failed', duration_ms: 10, error: 'exit code 3' });
    const cancelled = await outbox('run.finished', { status: 'cancelled', duration_ms: 0, error: 'cancelled by a user' });
    await (await worker()).collect();
    const byTask = (taskId: string) => receiver.received.find((r) => r.body.data.task_id === taskId)!;
    expect(byTask(started).body.event).toBe('test.started');
    expect(byTask(started).body.data).not.toHaveProperty('status');
    expect(byTask(failed).body).toMatchObject({ event: 'test.failed', data: { status: 'failed', error: 'exit code 3' } });
    expect(byTask(cancelled).body).toMatchObject({ event: 'test.failed', data: { status: 'cancelled' } });
    expect(receiver.received).toHaveLength(3);
  });

  test('retries after 1 min, 5 min, 30 min and 2 h; the fifth failure is final; history newest first', async () => {
    const hook = await createHook('/down', ['test.started']);
    receiver.respond = () => new Response('maintenance', { status: 503 });
    await outbox('run.started', {});
    const w = await worker();
    const start = clock;
    const offsets = [0, 60_000, 6 * 60_000, 36 * 60_000, 156 * 60_000];
    for (const [i, offset] of offsets.entries()) {
      // Just before the due time nothing leaves; at it, exactly one attempt.
      if (i > 0) {
        clock = start + offset - 1000;
        await w.collect();
        expect(receiver.received).toHaveLength(i);
      }
      clock = start + offset;
      await w.collect();
      expect(receiver.received).toHaveLength(i + 1);
      const [delivery] = await deliveries(hook.id);
      const next = offsets[i + 1];
      expect(delivery!.state).toBe(next === undefined ? 'failed' : 'waiting');
      expect(delivery!.next_attempt_at).toBe(next === undefined ? null : new Date(start + next).toISOString());
    }
    clock = start + 30 * 24 * 3600_000;
    await w.collect();
    expect(receiver.received).toHaveLength(5);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
    // Every attempt is signed at its own time.
    expect(new Set(receiver.received.map((r) => r.headers['x-service-signature'])).size).toBe(5);

    const [delivery] = await deliveries(hook.id);
    expect(delivery!.attempt_count).toBe(5);
    expect(delivery!.attempts.map((a) => a.attempted_at)).toEqual(offsets.map((o) => new Date(start + o).toISOString()).reverse());
    for (const attempt of delivery!.attempts) {
      expect(attempt).toMatchObject({ outcome: 'failure', status_code: 503, error: 'answered 503', response_excerpt: 'maintenance' });
    }
  });

  test('a delivery that succeeds on a retry stops there', async () => {
    const hook = await createHook('/flaky', ['test.started']);
    let calls = 0;
    receiver.respond = () => new Response(++calls === 1 ? 'no' : 'yes', { status: calls === 1 ? 500 : 204 });
    await outbox('run.started', {});
    const w = await worker();
    await w.collect();
    clock += 60_000;
    await w.collect();
    clock += 24 * 3600_000;
    await w.collect();
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ state: 'delivered', attempt_count: 2, next_attempt_at: null });
    expect(delivery!.attempts.map((a) => [a.outcome, a.status_code])).toEqual([
      ['success', 204],
      ['failure', 500],
    ]);
  });
});

describe('failures and limits', () => {
  test('a redirect, a timeout and a refused connection are failures; a large answer is read only up to the excerpt', async () => {
    const redirect = await createHook('/redirect', ['test.started']);
    const slow = await createHook('/slow', ['test.started']);
    const big = await createHook('/big', ['test.started']);
    const closed = await ts.request('/api/v1/webhooks', { method: 'POST', token: owner, json: { url: 'http://127.0.0.1:9/nothing', events: ['test.started'] } });
    const closedId = ((await closed.json()) as { id: string }).id;
    await outbox('run.started', {});
    // /slow answers only after the client gave up: collect() returning at all shows the timeout ended that attempt. The
    // timeout is wide so the endpoints that do answer never meet it on a loaded machine.
    await (await worker({ timeoutMillis: 3000 })).collect();

    expect((await deliveries(redirect.id))[0]!.attempts[0]).toMatchObject({ outcome: 'failure', status_code: 302, error: 'redirect (302) not followed' });
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
    const timedOut = (await deliveries(slow.id))[0]!;
    expect(timedOut.attempts[0]).toMatchObject({ outcome: 'failure', status_code: null, error: 'no answer within 3 s' });
    expect(timedOut.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(2950);
    const large = (await deliveries(big.id))[0]!;
    expect(large.attempts[0]).toMatchObject({ outcome: 'success', status_code: 200 });
    expect(large.attempts[0]!.response_excerpt).toBe('x'.repeat(2048));
    const refused = (await deliveries(closedId))[0]!;
    expect(refused.attempts[0]!.error).toStartWith('connection error:');
    expect(refused.state).toBe('waiting');
  });

  test('the URL is checked again at delivery: a name now resolving inward is refused without a connection', async () => {
    // Created when the name was public (inserted as such); by delivery time it points at 10.0.0.7.
    const secrets = await createSecretBox(ts.service.secretKey);
    const webhookId = crypto.randomUUID();
    await sqlOf(ts.service.database).all(
      `insert into webhooks (id, workspace_id, url, events, enabled, secret_box, created_at, updated_at) values (?, ?, ?, ?::jsonb, true, ?, now(), now())`,
      [webhookId, workspaceId, `http://rebind.test:${receiver.port}/hook`, '["test.started"]', await secrets.seal('whsec_x')],
    );
    let calls = 0;
    const spy: WebhookTransport = (post) => {
      calls++;
      return realTransport(post);
    };
    await outbox('run.started', {});
    await (await worker({ transport: spy })).collect();
    expect(calls).toBe(0);
    const [delivery] = await deliveries(webhookId);
    expect(delivery!.attempts[0]!.error).toContain('refused: rebind.test resolves to 10.0.0.7');
  });

  test('the connection goes to a checked address, whatever the system resolver says; an address that refuses is skipped', async () => {
    const secrets = await createSecretBox(ts.service.secretKey);
    const webhookId = crypto.randomUUID();
    await sqlOf(ts.service.database).all(
      `insert into webhooks (id, workspace_id, url, events, enabled, secret_box, created_at, updated_at) values (?, ?, ?, ?::jsonb, true, ?, now(), now())`,
      [webhookId, workspaceId, `http://pinned.test:${receiver.port}/pinned`, '["test.started"]', await secrets.seal('whsec_pinned')],
    );
    await outbox('run.started', {});
    await (await worker()).collect();
    const hook = receiver.received.find((r) => r.path === '/pinned')!;
    expect(hook.headers.host).toBe(`pinned.test:${receiver.port}`);
    // 127.0.0.2 refused the connection (the receiver listens on 127.0.0.1 only): one attempt, on the next address.
    const [delivery] = await deliveries(webhookId);
    expect(delivery).toMatchObject({ state: 'delivered', attempt_count: 1 });
  });
});

describe('concurrency', () => {
  test('two workers collecting at once send every delivery exactly once', async () => {
    await createHook('/one', ['test.started']);
    await createHook('/two', ['test.started']);
    for (let i = 0; i < 40; i++) await outbox('run.started', {});
    receiver.respond = async () => {
      await Bun.sleep(5);
      return new Response('ok');
    };
    const [w1, w2] = [await worker(), await worker()];
    await Promise.all([w1.collect(), w2.collect(), w1.collect(), w2.collect()]);
    expect(receiver.received).toHaveLength(80);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(80);
    expect(new Set(receiver.received.map((r) => r.body.id)).size).toBe(40);
  });
});
