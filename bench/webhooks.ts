/**
 * Webhook deliveries: (1) throughput, deliveries per second from outbox rows to a local receiver through the real
 * delivery worker (fan-out, claim, sign, HTTP POST, record); (2) first-attempt latency, from a real run's completion
 * (the task's finished_at) to the receiver getting its test.completed, with the service's own worker.
 *
 *   ./node_modules/.bin/bun bench/webhooks.ts [postgres] [pglite] [--events 2000] [--hooks 2] [--runs 40]
 *
 * The receiver is a Bun.serve in this process answering 200 at once; everything runs on one machine.
 */
import { createNodeWebhookTransport } from '../adapters/net/node-webhook-transport.ts';
import { createSecretBox } from '../core/domain/secret-box.ts';
import { silentLogger } from '../core/kernel/logger.ts';
import { createOutboxFeed } from '../core/services/outbox/outbox-feed.ts';
import { createOutboundUrlGuard, parseAllowList } from '../core/services/webhooks/outbound-url-guard.ts';
import { createDeliveryWorker } from '../plugins/notify-webhook/delivery-worker.ts';
import { sqlOf } from '../core/services/sql.ts';
import { startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { startServiceWithAgent } from '../tests/helpers/service-with-agent.ts';
import { startTestService } from '../tests/helpers/test-service.ts';
import { startWebhookReceiver } from '../tests/helpers/webhook-receiver.ts';

const args = Bun.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const modes = args.filter((a) => a === 'postgres' || a === 'pglite');
const events = flag('events', 2000);
const hookCount = flag('hooks', 2);
const runCount = flag('runs', 40);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function throughput(mode: string) {
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  const receiver = startWebhookReceiver();
  const ts = await startTestService({
    database: postgres ? postgres.url : 'memory',
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    boot: { pluginConfigOverrides: { 'identity-embedded': { passwordIterations: 1000 }, 'notify-webhook': { workers: false } } },
  });
  try {
    const owner = await ts.createUser('bench');
    const workspaceId = ((await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string }).id;
    for (let i = 0; i < hookCount; i++) {
      await ts.request('/api/v1/webhooks', { method: 'POST', token: owner, json: { url: `${receiver.url}/h${i}`, events: ['test.started'] } });
    }
    const sql = sqlOf(ts.service.database);
    await sql.all(
      `insert into outbox (workspace_id, event, task_id, payload)
       select ?, 'run.started', t.id, jsonb_build_object('task_id', t.id, 'test_id', null, 'machine_ids', '[]'::jsonb)
       from (select gen_random_uuid() as id from generate_series(1, ?)) t`,
      [workspaceId, events],
    );
    const worker = createDeliveryWorker({
      db: ts.service.database,
      outbox: createOutboxFeed(ts.service.database),
      guard: createOutboundUrlGuard({ resolver: { resolve: async () => [] }, allow: parseAllowList(['127.0.0.1']) }),
      transport: createNodeWebhookTransport(),
      secrets: await createSecretBox(ts.service.secretKey),
      publicUrl: 'http://localhost:8080',
      logger: silentLogger,
    });
    const started = performance.now();
    await worker.collect();
    const seconds = (performance.now() - started) / 1000;
    const delivered = receiver.received.length;
    if (delivered !== events * hookCount) throw new Error(`expected ${events * hookCount} deliveries, got ${delivered}`);
    return { mode, deliveries: delivered, seconds, perSecond: delivered / seconds };
  } finally {
    await ts.stop();
    await receiver.stop();
    await postgres?.stop();
  }
}

async function latency(mode: string) {
  const postgres = mode === 'postgres' ? await startPostgresServer() : null;
  const receiver = startWebhookReceiver();
  const fixture = await startServiceWithAgent('bench-latency', {
    database: postgres ? postgres.url : 'memory',
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
  });
  try {
    const call = (path: string, json?: unknown) =>
      fixture.ts.request(path, { method: json ? 'POST' : 'GET', token: fixture.jwt, ...(json ? { json } : {}) });
    await call('/api/v1/webhooks', { url: `${receiver.url}/latency`, events: ['test.completed'] });
    const test = (await (await call('/api/v1/tests', { name: 'tiny', tool: 'custom', script: '#!/bin/sh\ntrue\n' })).json()) as { id: string };
    const samples: number[] = [];
    for (let i = 0; i < runCount; i++) {
      const task = (await (await call('/api/v1/tasks', { testId: test.id })).json()) as { id: string };
      const [hook] = (await receiver.waitFor((all) => all.some((r) => r.body.data.task_id === task.id), 30_000)).filter(
        (r) => r.body.data.task_id === task.id,
      );
      const view = (await (await call(`/api/v1/tasks/${task.id}`)).json()) as { finished_at: string };
      samples.push(hook!.at - new Date(view.finished_at).getTime());
    }
    return { mode, runs: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) };
  } finally {
    await fixture.stop();
    await receiver.stop();
    await postgres?.stop();
  }
}

console.log('| database | deliveries | seconds | deliveries/s |');
console.log('|---|---|---|---|');
for (const mode of modes.length ? modes : ['postgres']) {
  const result = await throughput(mode);
  console.log(`| ${result.mode} | ${result.deliveries} | ${result.seconds.toFixed(2)} | ${Math.round(result.perSecond)} |`);
}
console.log('');
console.log('| database | runs | first attempt p50 (ms) | p99 (ms) | max (ms) |');
console.log('|---|---|---|---|---|');
for (const mode of modes.length ? modes : ['postgres']) {
  const result = await latency(mode);
  console.log(`| ${result.mode} | ${result.runs} | ${result.p50} | ${result.p99} | ${result.max} |`);
}
process.exit(0);
