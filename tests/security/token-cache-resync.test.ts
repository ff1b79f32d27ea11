/**
 * A revocation announced while a replica's LISTEN connection is down never reaches it: the replica must empty its token
 * cache when it gets the connection back, or the revoked token keeps working there for up to a minute. LISTEN/NOTIFY is
 * PostgreSQL's, so this suite runs two replicas on a throwaway PostgreSQL server in both database passes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createPostgresChangeFeed } from '../../adapters/pubsub/postgres-change-feed.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { type AccessChange, changeFeedPort } from '../../core/ports/change-feed.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let a: TestService;
let b: TestService;
/**
 * Replica A's access feed reaches the server through this proxy: the test cuts it and decides when A may listen again,
 * so A stays deaf for as long as the test needs, however slow the machine (a timed outage could end too soon).
 */
let feedProxy: TcpProxy;
let serverPort = 0;

// Without PostgreSQL the suite says so and skips (it fails under CI, which must run it).
const postgres: PostgresServer | null = await startPostgresServer();
const runs = requireOrSkip(postgres ? null : POSTGRES_SKIP_MESSAGE, 'the token-cache resync test');

beforeAll(async () => {
  if (!postgres) return;
  const url = postgres.url;
  serverPort = Number(new URL(url).port);
  feedProxy = await startTcpProxy(serverPort);
  const viaProxy = new URL(url);
  viaProxy.port = String(feedProxy.port);
  const port = await freePort();
  // Reconnect attempts every 100 ms: they fail while the proxy points nowhere, and succeed once it points back.
  a = await startTestService({ database: url, port, changeFeed: () => createPostgresChangeFeed(viaProxy.toString(), silentLogger, { retryMillis: [100] }) });
  await a.listen();
  // One PUBLIC_URL for both, as replicas behind one balancer (B is only called in-process): tokens work on either.
  b = await startTestService({ database: url, port });
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await feedProxy?.close();
  await postgres?.stop();
});

test.skipIf(!runs)('a token revoked while the LISTEN connection was down stops working on that replica as soon as it listens again', async () => {
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

  // A network blip between A and the server: its LISTEN connection drops, and it cannot get one back until the test
  // says so (the proxy points at a port nobody listens on).
  feedProxy.switchTo(await freePort());
  // A noticed the loss and dropped its cache; what it caches from now on may go stale unheard.
  await waitFor(() => flushes() === 1, 30_000, 'replica A to flush on losing its listener');
  expect((await machines()).status).toBe(200);

  // Revoked through replica B: B's NOTIFY goes out while A is not listening.
  expect((await b.request(`/api/v1/api-tokens/${id}`, { method: 'DELETE', token: owner })).status).toBe(204);
  expect((await b.request('/api/v1/machines', { token })).status).toBe(401);
  expect(heard.some((change) => change.kind === 'token')).toBe(false);
  // The notice is lost for A: its cache still says yes (this is the gap the resync closes).
  expect((await machines()).status).toBe(200);
  expect(flushes()).toBe(1);
  expect(agent.readyState).toBe(WebSocket.OPEN);

  // A may listen again; refused once it does (the cache's own backstop is a minute, far beyond this wait).
  const reopenedAt = Date.now();
  feedProxy.switchTo(serverPort);
  let status = 200;
  await waitFor(async () => (status = (await machines()).status) === 401, 30_000, 'the revoked token to be refused on A');
  expect(status).toBe(401);
  expect(flushes()).toBe(2);
  // The resync re-checked the open sockets too: the agent was cut, and only after A listened again.
  const closed = await agentClosed;
  expect(closed.code).toBe(4401);
  expect(closed.at).toBeGreaterThanOrEqual(reopenedAt);

  // And A hears notices again: a second token, revoked on B, is refused on A without another reconnect.
  const second = (await (await a.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'ci-2' } })).json()) as { id: string; token: string };
  expect((await a.request('/api/v1/machines', { token: second.token })).status).toBe(200);
  expect((await b.request(`/api/v1/api-tokens/${second.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
  await waitFor(() => heard.some((change) => change.kind === 'token'), 30_000, 'replica A to hear the second revocation');
  expect((await a.request('/api/v1/machines', { token: second.token })).status).toBe(401);
}, 120_000);
