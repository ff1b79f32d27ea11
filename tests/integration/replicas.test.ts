/** Two replicas on one PostgreSQL database: a revocation, rotation or role change on one is honoured by the other at once. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let postgres: PostgresServer | null = null;
let a: TestService;
let b: TestService;
let dataDir: string;

beforeAll(async () => {
  postgres = await startPostgresServer();
  if (!postgres) return;
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-replicas-'));
  // One database and one DATA_DIR (realm key, client secret), as two replicas behind a load balancer.
  a = await startTestService({ database: postgres.url, dataDir });
  b = await startTestService({ database: postgres.url, dataDir });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * Polls until `check` holds: NOTIFY reaches the other replica asynchronously, usually within milliseconds (the lag is
 * printed, not asserted). The bound is wide for a loaded machine yet half the caches' own one-minute backstop, so what
 * holds within it came from the notification, not from an entry running out.
 */
async function eventually(check: () => Promise<boolean>, millis = 30_000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < millis) {
    if (await check()) return performance.now() - start;
    await Bun.sleep(5);
  }
  throw new Error(`not true within ${millis} ms`);
}

function requirePostgres() {
  if (postgres) return true;
  if (process.env.CI) throw new Error(`CI must run the replica suite: ${POSTGRES_SKIP_MESSAGE}`);
  console.warn(POSTGRES_SKIP_MESSAGE);
  return false;
}

test('revocation and rotation on one replica take effect on the other, whose cache was warm', async () => {
  if (!requirePostgres()) return;
  const jwt = await a.createUser('replica-user');
  const created = await a.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: 'shared' } });
  const { id, token } = (await created.json()) as { id: string; token: string };
  expect((await b.request('/api/v1/machines', { token })).status).toBe(200);

  const rotated = await a.request(`/api/v1/api-tokens/${id}/rotate`, { method: 'POST', token: jwt });
  const fresh = ((await rotated.json()) as { token: string }).token;
  const rotateLag = await eventually(async () => (await b.request('/api/v1/machines', { token })).status === 401);
  expect((await b.request('/api/v1/machines', { token: fresh })).status).toBe(200);

  await a.request(`/api/v1/api-tokens/${id}`, { method: 'DELETE', token: jwt });
  const revokeLag = await eventually(async () => (await b.request('/api/v1/machines', { token: fresh })).status === 401);
  console.info(`replica saw the rotation after ${rotateLag.toFixed(1)} ms and the revocation after ${revokeLag.toFixed(1)} ms`);
}, 60_000);

test('a role change on one replica is enforced by the other', async () => {
  if (!requirePostgres()) return;
  const owner = await a.createUser('replica-owner');
  const member = await a.createUser('replica-member');
  await a.request('/api/v1/auth/me', { token: member });
  const workspace = (await (await a.request('/api/v1/workspace', { token: owner })).json()) as { id: string };
  await inviteAndAccept(a, owner, 'replica-member', 'member', member);
  const headers = { 'x-workspace-id': workspace.id };
  const create = () => b.request('/api/v1/tests', { method: 'POST', token: member, headers, json: { name: 'x', tool: 'k6', script: 'export default function () {}' } });
  expect((await create()).status).toBe(201);
  const members = (await (await a.request('/api/v1/members', { token: owner })).json()) as { user_id: string; username: string }[];
  const memberId = members.find((m) => m.username === 'replica-member')!.user_id;
  await a.request(`/api/v1/members/${memberId}`, { method: 'PATCH', token: owner, json: { role: 'viewer' } });
  await eventually(async () => (await create()).status === 403);
}, 60_000);
