/**
 * Git repositories through the REST API against a real git server (git http-backend on loopback, made by the test):
 * connect, sync in the background, tests made per file by extension, re-sync updates instead of duplicating, files
 * gone upstream archive their tests; credentials write-only and sealed; unreachable, refused, too big and too slow
 * repositories answered clearly; scopes and tenants.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { sqlOf } from '../../core/services/sql.ts';
import { minimalScripts } from '../fixtures/minimal-scripts.ts';
import { type GitHttpServer, startGitHttpServer } from '../helpers/git-http-server.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

interface Repo {
  id: string;
  url: string;
  branch: string;
  path: string;
  has_credentials: boolean;
  sync_status: string;
  last_commit: string | null;
  last_synced_at: string | null;
  last_error: string | null;
  last_result: { files: number; created: number; updated: number; unchanged: number; archived: number; skipped: { path: string; reason: string }[] } | null;
}
interface TestRow {
  id: string;
  name: string;
  tool: string;
  status: string;
  script: string;
}

let ts: TestService;
let git: GitHttpServer;
let privateGit: GitHttpServer;
let hanging: Server;
const held: Socket[] = [];
let hangingPort = 0;
let counter = 0;
const fresh = () => ts.createUser(`gituser${++counter}`);
const maxFetchBytes = 1024 * 1024;

const connect = (token: string, body: unknown) => ts.request('/api/v1/git-repos', { method: 'POST', token, json: body });
const errorOf = async (response: Response) => (await response.json()) as { error: string; message: string };

async function settled(token: string, id: string): Promise<Repo> {
  let repo = {} as Repo;
  const done = async () => ['synced', 'failed'].includes((repo = (await (await ts.request(`/api/v1/git-repos/${id}`, { token })).json()) as Repo).sync_status);
  await waitFor(done, 45_000, `repository ${id} to finish syncing`);
  return repo;
}

async function connected(token: string, body: unknown): Promise<Repo> {
  const response = await connect(token, body);
  expect(response.status, await response.clone().text()).toBe(201);
  const repo = (await response.json()) as Repo;
  expect(repo.sync_status).toBe('queued');
  return settled(token, repo.id);
}

async function sync(token: string, id: string): Promise<Repo> {
  const response = await ts.request(`/api/v1/git-repos/${id}/sync`, { method: 'POST', token });
  expect(response.status).toBe(202);
  expect(['queued', 'syncing', 'synced']).toContain(((await response.json()) as Repo).sync_status);
  return settled(token, id);
}

const testsOf = async (token: string) => (await (await ts.request('/api/v1/tests?limit=1000', { token })).json()) as TestRow[];
const byName = (rows: TestRow[]) => Object.fromEntries(rows.map((row) => [row.name, row]));

const files = {
  'loadtests/checkout.js': 'export default function () { /* v1 */ }\n',
  'loadtests/locustfile.py': minimalScripts.locust!,
  'loadtests/plan.jmx': minimalScripts.jmeter!,
  'loadtests/flow.yml': minimalScripts.artillery!,
  'loadtests/sub/deep.yaml': minimalScripts.artillery!.replace('url: /', 'url: /deep'),
  'loadtests/Sim.scala':
    'import io.gatling.core.Predef._\nimport io.gatling.http.Predef._\n\nclass Sim extends Simulation {\n  setUp(scenario("s").exec(http("h").get("http://127.0.0.1:9/")).inject(atOnceUsers(1)))\n}\n',
  // Its tool refuses it: skipped with the reason, as POST /tests would answer.
  'loadtests/broken.jmx': 'not a plan\n',
  'loadtests/README.md': '# not a test\n',
  'loadtests/empty.js': '   \n',
  'other/outside.js': 'export default function () {}\n',
};

beforeAll(async () => {
  git = await startGitHttpServer();
  privateGit = await startGitHttpServer({ auth: { username: 'ci', password: 'token-abc-123' } });
  // A server that accepts connections and never answers: the sync's deadline must end the fetch.
  hanging = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingPort = (hanging.address() as { port: number }).port;
  ts = await startTestService({
    port: await freePort(),
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    boot: { gitSyncLimits: { maxFetchBytes, timeoutMillis: 3_000 } },
  });
}, 60_000);

afterAll(async () => {
  await ts?.stop();
  for (const socket of held) socket.destroy();
  hanging?.close();
  await git?.stop();
  await privateGit?.stop();
});

describe('git repositories: sync', () => {
  test('test files under path become tests by extension; a re-sync updates, adds and archives without duplicates', async () => {
    const owner = await fresh();
    const first = await git.commit('perf', files);
    const repo = await connected(owner, { url: git.url('perf'), path: 'loadtests' });
    expect(repo).toMatchObject({ url: git.url('perf'), branch: 'main', path: 'loadtests', sync_status: 'synced', last_commit: first, last_error: null, has_credentials: false });
    expect(repo.last_synced_at).toMatch(/Z$/);
    expect({ ...repo.last_result, skipped: [...repo.last_result!.skipped].sort((x, y) => x.path.localeCompare(y.path)) }).toEqual({
      files: 8,
      created: 6,
      updated: 0,
      unchanged: 0,
      archived: 0,
      skipped: [
        { path: 'loadtests/broken.jmx', reason: 'not a valid jmeter test: a JMeter script must be a .jmx test plan (XML starting with <?xml or <jmeterTestPlan); this is not XML' },
        { path: 'loadtests/empty.js', reason: 'empty file' },
      ],
    });
    const tests = byName(await testsOf(owner));
    expect(Object.fromEntries(Object.values(tests).map((t) => [t.name, `${t.tool}/${t.status}`]))).toEqual({
      'loadtests/checkout.js': 'k6/active',
      'loadtests/locustfile.py': 'locust/active',
      'loadtests/plan.jmx': 'jmeter/active',
      'loadtests/flow.yml': 'artillery/active',
      'loadtests/sub/deep.yaml': 'artillery/active',
      'loadtests/Sim.scala': 'gatling/active',
    });
    expect(tests['loadtests/checkout.js']!.script).toBe(files['loadtests/checkout.js']);

    // Nothing changed upstream: the same tests, untouched.
    const again = await sync(owner, repo.id);
    expect(again.last_result).toMatchObject({ created: 0, updated: 0, unchanged: 6, archived: 0 });

    const second = await git.commit('perf', {
      'loadtests/checkout.js': 'export default function () { /* v2 */ }\n',
      'loadtests/plan.jmx': null,
      'loadtests/NewSim.java': minimalScripts.gatling!.replace('class Minimal', 'class NewSim'),
    });
    const resynced = await sync(owner, repo.id);
    expect(resynced).toMatchObject({ sync_status: 'synced', last_commit: second, last_error: null });
    expect(resynced.last_result).toMatchObject({ created: 1, updated: 1, unchanged: 4, archived: 1 });
    const after = await testsOf(owner);
    expect(after).toHaveLength(7);
    const named = byName(after);
    expect(named['loadtests/checkout.js']!.id).toBe(tests['loadtests/checkout.js']!.id);
    expect(named['loadtests/checkout.js']!.script).toContain('v2');
    expect(named['loadtests/plan.jmx']!.status).toBe('archived');
    expect(named['loadtests/NewSim.java']!.tool).toBe('gatling');

    // The file comes back: its test is active again, still the same test.
    await git.commit('perf', { 'loadtests/plan.jmx': minimalScripts.jmeter!.replace('testname="minimal"', 'testname="v2"') });
    const restored = await sync(owner, repo.id);
    expect(restored.last_result).toMatchObject({ updated: 1, archived: 0 });
    const plan = byName(await testsOf(owner))['loadtests/plan.jmx']!;
    expect(plan).toMatchObject({ id: tests['loadtests/plan.jmx']!.id, status: 'active' });

    // The audit log has the connection, the sync requests and each sync's outcome (by the system).
    const audit = (await (await ts.request('/api/v1/audit-log?limit=1000', { token: owner })).json()) as { action: string; actor: { type: string } }[];
    const actions = audit.filter((e) => e.action.startsWith('git_repo.')).map((e) => `${e.action}:${e.actor.type}`);
    expect(actions.filter((a) => a === 'git_repo.synced:system')).toHaveLength(4);
    expect(actions.filter((a) => a === 'git_repo.sync_requested:user')).toHaveLength(3);
    expect(actions.at(-1)).toBe('git_repo.created:user');

    // Disconnecting keeps the tests, as ordinary tests.
    expect((await ts.request(`/api/v1/git-repos/${repo.id}`, { method: 'DELETE', token: owner })).status).toBe(204);
    expect(await testsOf(owner)).toHaveLength(7);
    expect((await ts.request(`/api/v1/git-repos/${repo.id}`, { token: owner })).status).toBe(404);
  }, 60_000);

  test('the whole repository by default; another branch; an unknown branch or path fails with a clear last_error', async () => {
    const owner = await fresh();
    await git.commit('branches', { 'a.js': 'export default function () {}\n', 'deep/b.py': minimalScripts.locust! });
    const release = await git.commit('branches', { 'c.yml': minimalScripts.artillery! }, { branch: 'release/1.0' });
    const whole = await connected(owner, { url: git.url('branches') });
    expect(whole.last_result).toMatchObject({ created: 2 });
    const branch = await connected(owner, { url: git.url('branches'), branch: 'release/1.0' });
    expect(branch).toMatchObject({ sync_status: 'synced', last_commit: release, last_result: { created: 1 } });
    const missing = await connected(owner, { url: git.url('branches'), branch: 'nope' });
    expect(missing.sync_status).toBe('failed');
    expect(missing.last_error).toContain('nope');
    expect(missing.last_commit).toBeNull();
    const noPath = await connected(owner, { url: git.url('branches'), path: 'not/here' });
    expect(noPath).toMatchObject({ sync_status: 'failed', last_error: 'path not/here does not exist on branch main' });
  }, 60_000);

  test('credentials are write-only and sealed; without them a private repository fails, with them it syncs', async () => {
    const owner = await fresh();
    const commit = await privateGit.commit('secret-repo', { 'k6/smoke.js': 'export default function () {}\n' });
    const anonymous = await connected(owner, { url: privateGit.url('secret-repo') });
    expect(anonymous.sync_status).toBe('failed');
    expect(anonymous.last_error).toContain('refused access (HTTP 401)');

    const wrong = await ts.request(`/api/v1/git-repos/${anonymous.id}`, {
      method: 'PATCH',
      token: owner,
      json: { credentials: { username: 'ci', password: 'wrong-token' } },
    });
    expect(wrong.status).toBe(200);
    expect(((await wrong.json()) as Repo).has_credentials).toBe(true);
    expect((await sync(owner, anonymous.id)).last_error).toContain('HTTP 401');

    const patched = await ts.request(`/api/v1/git-repos/${anonymous.id}`, {
      method: 'PATCH',
      token: owner,
      json: { credentials: { username: 'ci', password: 'token-abc-123' } },
    });
    const text = await patched.text();
    expect(text).not.toContain('token-abc-123');
    const synced = await sync(owner, anonymous.id);
    expect(synced).toMatchObject({ sync_status: 'synced', last_commit: commit, last_error: null, has_credentials: true });
    const listed = await (await ts.request('/api/v1/git-repos', { token: owner })).text();
    expect(listed).not.toContain('token-abc-123');
    const [row] = await sqlOf(ts.service.database).all<{ credentials_box: string }>('select credentials_box from git_repos where id = ?', [anonymous.id]);
    expect(row!.credentials_box).toStartWith('v1.');
    expect(row!.credentials_box).not.toContain('token-abc-123');
    const audit = await (await ts.request('/api/v1/audit-log?limit=1000', { token: owner })).text();
    expect(audit).not.toContain('token-abc-123');

    const cleared = await ts.request(`/api/v1/git-repos/${anonymous.id}`, { method: 'PATCH', token: owner, json: { credentials: null } });
    expect(((await cleared.json()) as Repo).has_credentials).toBe(false);
  }, 60_000);
});

describe('git repositories: failures answered clearly', () => {
  test('an unreachable URL: the sync fails with connection refused', async () => {
    const owner = await fresh();
    const repo = await connected(owner, { url: `http://127.0.0.1:${await freePort()}/nothing.git` });
    expect(repo.sync_status).toBe('failed');
    expect(repo.last_error).toMatch(/could not connect to 127\.0\.0\.1:\d+: connection refused/);
  }, 90_000);

  test('a URL that is no git repository: HTTP 404', async () => {
    const owner = await fresh();
    const repo = await connected(owner, { url: `${git.origin}/missing.git` });
    expect(repo).toMatchObject({ sync_status: 'failed', last_error: `no git repository at ${git.origin}/missing.git (HTTP 404)` });
  }, 90_000);

  test('a repository over the byte budget stops the fetch', async () => {
    const owner = await fresh();
    // Random bytes do not compress: the pack is as large as the file.
    const big = new Uint8Array(maxFetchBytes * 2);
    for (let i = 0; i < big.length; i += 65536) big.set(crypto.getRandomValues(new Uint8Array(65536)), i);
    await git.commit('huge', { 'big.bin': big, 't.js': 'export default function () {}\n' });
    const repo = await connected(owner, { url: git.url('huge') });
    expect(repo.sync_status).toBe('failed');
    expect(repo.last_error).toContain('larger than 1 MiB');
    expect(await testsOf(owner)).toEqual([]);
  }, 90_000);

  test('a server that never answers: the deadline ends the fetch', async () => {
    const owner = await fresh();
    // The server never answers: without the deadline the sync would never end. The error names the deadline as the cause.
    const repo = await connected(owner, { url: `http://127.0.0.1:${hangingPort}/slow.git` });
    expect(repo).toMatchObject({ sync_status: 'failed', last_error: 'the fetch took longer than 3 s and was stopped' });
  }, 90_000);

  test('refused addresses, bad URLs, branches and paths: 400 naming the problem', async () => {
    const owner = await fresh();
    const cases: [unknown, string][] = [
      [{ url: 'http://10.1.2.3/repo.git' }, 'private'],
      [{ url: 'http://169.254.169.254/latest' }, 'link-local'],
      [{ url: 'http://[::1]:9/repo.git' }, 'loopback'],
      [{ url: 'git@github.com:org/repo.git' }, 'http(s)'],
      [{ url: 'ssh://git@example.com/repo.git' }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/repo.git' }, 'credentials'],
      [{ url: 'not a url' }, 'url'],
      [{ url: `${git.origin}/x.git`, branch: 'bad..branch' }, 'branch'],
      [{ url: `${git.origin}/x.git`, branch: 'has space' }, 'branch'],
      [{ url: `${git.origin}/x.git`, path: '../etc' }, 'path'],
      [{ url: `${git.origin}/x.git`, credentials: { password: '' } }, 'credentials'],
      [{ url: `${git.origin}/x.git`, token: 'x' }, 'token'],
      [{}, 'url'],
    ];
    for (const [body, fragment] of cases) {
      const response = await connect(owner, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(response);
      expect(error.error).toBe('bad_request');
      expect(error.message, JSON.stringify(body)).toContain(fragment);
    }
    expect(await (await ts.request('/api/v1/git-repos', { token: owner })).json()).toEqual([]);
  });

  test('a refused URL is refused at every sync too (an allowed name may resolve elsewhere later)', async () => {
    const owner = await fresh();
    const repo = await connected(owner, { url: `${git.url('perf')}` });
    expect(repo.sync_status).toBe('synced');
    // Swap the stored URL for a private one behind the API's back: the worker checks again.
    await sqlOf(ts.service.database).all("update git_repos set url = 'http://10.9.9.9/perf.git' where id = ?", [repo.id]);
    const refused = await sync(owner, repo.id);
    expect(refused.sync_status).toBe('failed');
    expect(refused.last_error).toContain('10.9.9.9 is a private (10.0.0.0/8) address');
  }, 90_000);
});

describe('git repositories: who may', () => {
  test('tests:read reads, tests:write connects and syncs; other workspaces get 404 on every route', async () => {
    const { token: full, jwt } = await ts.apiToken(`gitowner${++counter}`);
    const scoped = async (scopes: string[]) =>
      ((await (await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: scopes.join('+'), scopes } })).json()) as { token: string }).token;
    const reader = await scoped(['tests:read']);
    const writer = await scoped(['tests:write']);
    const metrics = await scoped(['metrics:read']);
    const repo = await connected(full, { url: git.url('perf') });
    expect((await ts.request('/api/v1/git-repos', { token: reader })).status).toBe(200);
    expect((await ts.request(`/api/v1/git-repos/${repo.id}`, { token: reader })).status).toBe(200);
    expect((await connect(reader, { url: git.url('perf') })).status).toBe(403);
    expect((await ts.request(`/api/v1/git-repos/${repo.id}/sync`, { method: 'POST', token: reader })).status).toBe(403);
    expect((await ts.request('/api/v1/git-repos', { token: metrics })).status).toBe(403);
    expect((await ts.request(`/api/v1/git-repos/${repo.id}/sync`, { method: 'POST', token: writer })).status).toBe(202);
    await settled(full, repo.id);

    const stranger = await fresh();
    expect(await (await ts.request('/api/v1/git-repos', { token: stranger })).json()).toEqual([]);
    for (const [method, path, json] of [
      ['GET', '', undefined],
      ['PATCH', '', { branch: 'x' }],
      ['POST', '/sync', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const response = await ts.request(`/api/v1/git-repos/${repo.id}${path}`, { method, token: stranger, json });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await errorOf(response)).toEqual({ error: 'not_found', message: 'git repository not found' });
    }
    expect(((await (await ts.request(`/api/v1/git-repos/${repo.id}`, { token: full })).json()) as Repo).branch).toBe('main');
  }, 60_000);
});
