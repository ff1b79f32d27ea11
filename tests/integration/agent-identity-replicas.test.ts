/**
 * Agents' hellos at once on two replicas of one PostgreSQL database: the machine is chosen under the workspace row's
 * lock with the socket's presence in the same transaction, so agents with one hostname and different keys get one
 * machine each (numbered), one key never makes two machines, and the plan's machine limit stays exact.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HelloSocket, newMachineKey, sayHello } from '../helpers/hello-socket.ts';
import { POSTGRES_SKIP_MESSAGE, type PostgresServer, startPostgresServer } from '../helpers/postgres-server.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';

let postgres: PostgresServer | null = null;
let a: TestService;
let b: TestService;
let dataDir: string;
const open: HelloSocket[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  if (!postgres) return;
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-identity-replicas-'));
  // One PUBLIC_URL, as behind a load balancer: a sign-in's token (its issuer) is good on both.
  const env = { PUBLIC_URL: 'http://loadplane.test:8080' };
  a = await startTestService({ database: postgres.url, dataDir, port: await freePort(), env });
  b = await startTestService({ database: postgres.url, dataDir, port: await freePort(), env });
  await a.listen();
  await b.listen();
}, 120_000);

afterAll(async () => {
  for (const socket of open) await socket.close();
  await a?.stop();
  await b?.stop();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Without PostgreSQL the suite says why and skips; under CI that is a failure. */
const requirePostgres = () => requireOrSkip(postgres ? null : POSTGRES_SKIP_MESSAGE, 'the agent-identity replica suite');

type Listed = { id: string; hostname: string; status: string };

/** `count` hellos sent at once, alternating between the replicas. */
async function atOnce(token: string, count: number, fields: (i: number) => { hostname: string; machineKey?: string }) {
  const sockets = await Promise.all(Array.from({ length: count }, (_, i) => sayHello((i % 2 ? b : a).url, token, fields(i))));
  open.push(...sockets);
  return sockets;
}

async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await Bun.sleep(20);
}

test('eight agents with one hostname at once: eight machines, numbered, none replaced', async () => {
  if (!requirePostgres()) return;
  const owner = await a.apiToken('crowd-owner');
  const token = await agentToken(a, owner.jwt, 'crowd');
  const sockets = await atOnce(token, 8, () => ({ hostname: 'crowd', machineKey: newMachineKey() }));
  expect(sockets.every((s) => s.welcome !== null)).toBe(true);
  expect(new Set(sockets.map((s) => s.welcome!.machineId)).size).toBe(8);
  expect(sockets.map((s) => s.welcome!.hostname).sort()).toEqual(['crowd', ...Array.from({ length: 7 }, (_, i) => `crowd-${i + 2}`)].sort());
  const listed = (await (await b.request('/api/v1/machines', { token: owner.token })).json()) as Listed[];
  expect(listed).toHaveLength(8);
  expect(listed.every((m) => m.status === 'online')).toBe(true);
  expect(sockets.map((s) => s.closed())).toEqual(Array(8).fill(null));
}, 60_000);

test('one key in four hellos at once: one machine, and one socket holds it in the end', async () => {
  if (!requirePostgres()) return;
  const owner = await a.apiToken('same-key-owner');
  const token = await agentToken(a, owner.jwt, 'same-key');
  const key = newMachineKey();
  const sockets = await atOnce(token, 4, () => ({ hostname: 'same', machineKey: key }));
  const listed = (await (await a.request('/api/v1/machines', { token: owner.token })).json()) as Listed[];
  expect(listed.map((m) => m.hostname)).toEqual(['same']);
  expect(new Set(sockets.filter((s) => s.welcome).map((s) => s.welcome!.machineId))).toEqual(new Set([listed[0]!.id]));
  // Each later claim replaced the one before, on whichever replica held it.
  await until(() => sockets.filter((s) => s.closed() === null).length === 1);
  expect(sockets.filter((s) => s.closed() !== null).every((s) => s.closed()!.code === 4409)).toBe(true);
}, 60_000);

test('the machine limit across replicas: starter allows 2 of 6 agents with one hostname at once', async () => {
  if (!requirePostgres()) return;
  const owner = await a.apiToken('crowd-limit-owner');
  expect((await a.request('/api/v1/workspace', { method: 'PATCH', token: owner.jwt, json: { plan: 'starter' } })).status).toBe(200);
  // Starter has no API tokens: its owner's sign-in connects the agents.
  const sockets = await atOnce(owner.jwt, 6, () => ({ hostname: 'limited', machineKey: newMachineKey() }));
  expect(sockets.filter((s) => s.welcome).map((s) => s.welcome!.hostname).sort()).toEqual(['limited', 'limited-2']);
  expect(sockets.filter((s) => !s.welcome).map((s) => s.closed()?.code)).toEqual([4403, 4403, 4403, 4403]);
  expect(((await (await b.request('/api/v1/machines', { token: owner.jwt })).json()) as Listed[]).length).toBe(2);
}, 60_000);
