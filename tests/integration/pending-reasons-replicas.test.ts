/**
 * Two replicas on one PostgreSQL database: the reason replica A computes for a pending task (at its start, and again
 * when an agent comes online on A) reaches an SSE stream held by replica B. B never sweeps during the test (its sweep
 * would re-read the row itself), so what B's stream shows came from the row A wrote and A's wake-up.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { createProtocolAgent, type ProtocolAgent } from '../helpers/protocol-agent.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort } from '../helpers/service-process.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { openRawStream } from '../helpers/stream-clients.ts';

let postgres: PostgresServer | null = null;
let a: TestService;
let b: TestService;
let dataDir: string;
let agent: ProtocolAgent | null = null;

beforeAll(async () => {
  postgres = await startPostgresServer();
  if (!postgres) return;
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-reason-replicas-'));
  // One database and one DATA_DIR, as two replicas behind a load balancer; the first applies the migrations.
  a = await startTestService({ database: postgres.url, dataDir, port: await freePort() });
  b = await startTestService({ database: postgres.url, dataDir, port: await freePort(), boot: { sweepMillis: 3_600_000 } });
  await a.listen();
  await b.listen();
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Without PostgreSQL the suite says why and skips; under CI that is a failure. */
const requirePostgres = () => requireOrSkip(postgres ? null : POSTGRES_SKIP_MESSAGE, 'the pending-reason replica suite');

test("a reason computed on A shows in B's SSE stream, and so does its change", async () => {
  if (!requirePostgres()) return;
  const { token, jwt } = await a.apiToken('reason-replicas');
  const created = await a.request('/api/v1/tests', { method: 'POST', token, json: { name: 'k6 on replicas', tool: 'k6', script: 'export default function () {}\n' } });
  const testId = ((await created.json()) as { id: string }).id;
  const started = await a.request('/api/v1/tasks', { method: 'POST', token, json: { testId } });
  const task = (await started.json()) as { id: string; pending_reason: string };
  expect(task.pending_reason).toBe('no machine of this workspace is online');

  const stream = openRawStream(b.url, task.id, token);
  try {
    await waitFor(() => stream.text().includes(': waiting: no machine of this workspace is online\n\n'), 30_000, () => `the first reason on B: ${JSON.stringify(stream.text())}`);
    // An agent without k6 comes online on A: A's dispatcher recomputes the reason and wakes B.
    agent = createProtocolAgent({ origin: a.url, token: await agentToken(a, jwt, 'replica agent'), hostname: 'replica-gen-1', tools: ['custom'] });
    await agent.connect();
    await waitFor(() => stream.text().includes(': waiting: no online machine offers k6: '), 30_000, () => `the changed reason on B: ${JSON.stringify(stream.text())}`);
    const reason = (await (await b.request(`/api/v1/tasks/${task.id}`, { token })).json()) as { pending_reason: string };
    expect(stream.text()).toContain(`: waiting: ${reason.pending_reason}\n\n`);
    expect(stream.text()).not.toContain('data:');
  } finally {
    stream.close();
    await stream.ended;
  }
}, 90_000);
