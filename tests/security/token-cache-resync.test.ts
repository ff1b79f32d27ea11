/**
 * A revocation announced while a replica's LISTEN connection is down never reaches it: the replica must empty its token
 * cache when it gets the connection back, or the revoked token keeps working there for up to a minute. LISTEN/NOTIFY is
 * PostgreSQL's, so this suite runs two replicas on a throwaway PostgreSQL server in both database passes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createPostgresChangeFeed } from '../../adapters/pubsub/postgres-change-feed.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { type AccessChange, changeFeedPort } from '../../core/ports/change-feed.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let postgres: PostgresServer | null;
let a: TestService;
let b: TestService;
/** How long replica A waits before it listens again: long enough for the test to act while A is deaf. */
const outageMillis = 2_000;

beforeAll(async () => {
  postgres = await startPostgresServer();
  if (!postgres) throw new Error(`this suite needs PostgreSQL: ${POSTGRES_SKIP_MESSAGE}`);
  const url = postgres.url;
  const port = await freePort();
  a = await startTestService({ database: url, port, changeFeed: () => createPostgresChangeFeed(url, silentLogger, { retryMillis: [outageMillis] }) });
  await a.listen();
  // One PUBLIC_URL for both, as replicas behind one balancer (B is only called in-process): tokens work on either.
  b = await startTestService({ database: url, port });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
});

/** Ends every LISTEN connection of the access feed on the server, as a network blip or a failover would. */
async function cutListeners() {
  const em = a.service.database.fork();
  const rows = (await em.getConnection().execute(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity where query = 'listen loadplane_access_changes' and pid <> pg_backend_pid()`,
  )) as { ended: boolean }[];
  expect(rows.length).toBeGreaterThanOrEqual(2);
}

async function until(check: () => boolean, millis: number): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > millis) throw new Error(`not true within ${millis} ms`);
    await Bun.sleep(10);
  }
}

test('a token revoked while the LISTEN connection was down stops working on that replica as soon as it listens again', async () => {
  const owner = await a.createUser('resync-owner');
  const created = await a.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'ci' } });
  const { id, token } = (await created.json()) as { id: string; token: string };
  const machines = () => a.request('/api/v1/machines', { token });
  expect((await machines()).status).toBe(200);
  // An agent on replica A with that token: its socket must be cut when A learns of the revocation, whenever that is.
  const agent = new WebSocket(`${a.url.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
  const agentClosed = new Promise<{ code: number; at: number }>((resolve) => agent.addEventListener('close', (event) => resolve({ code: event.code, at: Date.now() })));
  await new Promise((resolve) => agent.addEventListener('open', resolve));
  agent.send(JSON.stringify({ type: 'hello', protocol: 1, hostname: 'resync-agent', ip_address: '127.0.0.1', os: 'linux', arch: 'x86_64', cpu_cores: 1, memory_gb: 1, agent_version: 'test', tools: [], running: [] }));
  await new Promise((resolve) => agent.addEventListener('message', resolve, { once: true }));

  const heard: AccessChange[] = [];
  a.service.kernel.get(changeFeedPort).subscribe((change) => heard.push(change));
  const flushes = () => heard.filter((change) => change.kind === 'all').length;

  await cutListeners();
  // A noticed the loss and dropped its cache; what it caches from now on may go stale unheard.
  await until(() => flushes() === 1, 5_000);
  expect((await machines()).status).toBe(200);

  // Revoked through replica B: B's NOTIFY goes out while A is not listening.
  expect((await b.request(`/api/v1/api-tokens/${id}`, { method: 'DELETE', token: owner })).status).toBe(204);
  expect((await b.request('/api/v1/machines', { token })).status).toBe(401);
  expect(heard.some((change) => change.kind === 'token')).toBe(false);
  // The notice is lost for A: its cache still says yes (this is the gap the resync closes).
  const cutAt = Date.now();
  expect((await machines()).status).toBe(200);
  expect(agent.readyState).toBe(WebSocket.OPEN);

  // Refused once A listens again (the cache's own backstop is a minute, far beyond this wait).
  let status = 200;
  while (status !== 401 && Date.now() - cutAt < outageMillis + 5_000) {
    await Bun.sleep(50);
    status = (await machines()).status;
  }
  expect(status).toBe(401);
  expect(flushes()).toBe(2);
  // The resync re-checked the open sockets too: the agent was cut, and only after A listened again.
  const closed = await agentClosed;
  expect(closed.code).toBe(4401);
  expect(closed.at - cutAt).toBeGreaterThan(outageMillis / 2);

  // And A hears notices again: a second token, revoked on B, is refused on A without another reconnect.
  const second = (await (await a.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'ci-2' } })).json()) as { id: string; token: string };
  expect((await a.request('/api/v1/machines', { token: second.token })).status).toBe(200);
  expect((await b.request(`/api/v1/api-tokens/${second.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
  await until(() => heard.some((change) => change.kind === 'token'), 5_000);
  expect((await a.request('/api/v1/machines', { token: second.token })).status).toBe(401);
}, 60_000);
