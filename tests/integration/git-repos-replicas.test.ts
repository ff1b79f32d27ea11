/**
 * Git syncs across replicas on one PostgreSQL server: an API-only replica (WORKERS=false) syncs nothing itself; a
 * worker replica started later catches up with what waited (the Agenda job), and from then on a sync asked for on the
 * API-only replica is woken on the worker at once (pubsub), well before the job's next sweep.
 */
import { afterAll, expect, test } from 'bun:test';
import { type GitHttpServer, startGitHttpServer } from '../helpers/git-http-server.ts';
import { startPostgresServer } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const replicas: TestService[] = [];
let git: GitHttpServer | null = null;
let stopPostgres: () => Promise<void> = async () => {};

afterAll(async () => {
  for (const replica of replicas.reverse()) await replica.stop();
  await stopPostgres();
  await git?.stop();
});

const replica = async (url: string, env: Record<string, string> = {}) => {
  const service = await startTestService({ database: url, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ...env }, boot: { gitSyncEveryMillis: 60_000 } });
  replicas.push(service);
  return service;
};

async function statusAfter(service: TestService, token: string, id: string, millis: number) {
  const deadline = Date.now() + millis;
  let status = '';
  while (Date.now() < deadline) {
    status = ((await (await service.request(`/api/v1/git-repos/${id}`, { token })).json()) as { sync_status: string }).sync_status;
    if (status === 'synced' || status === 'failed') return status;
    await Bun.sleep(50);
  }
  return status;
}

test('WORKERS=false syncs nothing; a worker replica catches up, then takes wake-ups from the API replica', async () => {
  const postgres = await startPostgresServer();
  if (!postgres) throw new Error('no PostgreSQL server for the replica test');
  stopPostgres = () => postgres.stop();
  git = await startGitHttpServer();
  await git.commit('shared', { 'perf/load.js': 'export default function () {}\n' });

  const apiOnly = await replica(postgres.url, { WORKERS: 'false' });
  const owner = await apiOnly.createUser('git-replicas');
  const connect = async () => {
    const response = await apiOnly.request('/api/v1/git-repos', { method: 'POST', token: owner, json: { url: git!.url('shared') } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const waiting = await connect();
  expect(await statusAfter(apiOnly, owner, waiting, 1500)).toBe('queued');

  await replica(postgres.url);
  expect(await statusAfter(apiOnly, owner, waiting, 20_000)).toBe('synced');

  // The job's next sweep is a minute away: only the wake-up can make this one quick.
  const woken = await connect();
  const started = Date.now();
  expect(await statusAfter(apiOnly, owner, woken, 10_000)).toBe('synced');
  expect(Date.now() - started).toBeLessThan(10_000);
  const tests = (await (await apiOnly.request('/api/v1/tests', { token: owner })).json()) as { name: string }[];
  // Two repositories of one file each: one test per repository, none twice.
  expect(tests.map((t) => t.name)).toEqual(['perf/load.js', 'perf/load.js']);
}, 90_000);
