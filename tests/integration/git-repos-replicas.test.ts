/**
 * Git syncs across replicas on one PostgreSQL server: an API-only replica (WORKERS=false) syncs nothing itself; a
 * worker replica started later catches up with what waited (the Agenda job's first run), and from then on a sync asked
 * for on the API-only replica is woken on the worker (pubsub): the job's next sweep is an hour away, so nothing else can.
 */
import { afterAll, expect, test } from 'bun:test';
import { type GitHttpServer, startGitHttpServer } from '../helpers/git-http-server.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';

const replicas: TestService[] = [];
let git: GitHttpServer | null = null;
let stopPostgres: () => Promise<void> = async () => {};

afterAll(async () => {
  for (const replica of replicas.reverse()) await replica.stop();
  await stopPostgres();
  await git?.stop();
});

const replica = async (url: string, env: Record<string, string> = {}) => {
  const service = await startTestService({ database: url, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ...env }, boot: { gitSyncEveryMillis: 3_600_000 } });
  replicas.push(service);
  return service;
};

const statusOf = async (service: TestService, token: string, id: string) =>
  ((await (await service.request(`/api/v1/git-repos/${id}`, { token })).json()) as { sync_status: string }).sync_status;

/** The status once the sync ended (synced or failed). The bound is generous: it only ends a wait that would fail. */
async function settledStatus(service: TestService, token: string, id: string) {
  let status = '';
  await waitFor(async () => ['synced', 'failed'].includes((status = await statusOf(service, token, id))), 60_000, `repository ${id} to sync`);
  return status;
}

test('WORKERS=false syncs nothing; a worker replica catches up, then takes wake-ups from the API replica', async () => {
  const postgres = await startPostgresServer();
  if (!requireOrSkip(postgres ? null : POSTGRES_SKIP_MESSAGE, 'the git-sync replica test') || !postgres) return;
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
  // Nobody works here: still queued a while later (a slow machine can only make this pass more easily, never fail).
  await Bun.sleep(1500);
  expect(await statusOf(apiOnly, owner, waiting)).toBe('queued');

  await replica(postgres.url);
  expect(await settledStatus(apiOnly, owner, waiting)).toBe('synced');

  // The job's next sweep is an hour away: only the wake-up passed on from the API replica can sync this one.
  const woken = await connect();
  expect(await settledStatus(apiOnly, owner, woken)).toBe('synced');
  const tests = (await (await apiOnly.request('/api/v1/tests', { token: owner })).json()) as { name: string }[];
  // Two repositories of one file each: one test per repository, none twice.
  expect(tests.map((t) => t.name)).toEqual(['perf/load.js', 'perf/load.js']);
}, 180_000);
