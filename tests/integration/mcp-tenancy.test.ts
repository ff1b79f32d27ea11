/** MCP over POST /api/mcp (SDK client), two workspaces: B's token gets not_found for A's ids and changes nothing, B's lists hold none of A's ids; write_test with a script, write_config with stages, run_test with machine_ids and transport; machines' region and benchmark_capacity and limits' storage as REST reports them. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sqlOf } from '../../core/services/sql.ts';
import { type SeededRun, seedFinishedRun, seedPendingRun, seedTest } from '../helpers/finished-runs.ts';
import { call, callError, httpClient, type Structured } from '../helpers/mcp-client.ts';
import { exportBody, gauge } from '../helpers/otlp-json.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

interface Workspace {
  token: string;
  jwt: string;
  client: Client;
  testId: string;
  machineId: string;
  configId: string;
  pending: SeededRun;
  finished: SeededRun;
}

type RestRun = { id: string; status: string; machine_ids: string[]; transport: string; config_id: string | null; test_id: string };
type RestMachine = Record<string, unknown> & { id: string; region: string | null; benchmark_capacity: number | null };

let ts: TestService;
let a: Workspace;
let b: Workspace;

async function rest<T>(path: string, token: string, init: { method?: string; json?: unknown } = {}, status = 200): Promise<T> {
  const response = await ts.request(path, { ...init, token });
  expect(response.status, `${init.method ?? 'GET'} ${path}: ${await response.clone().text()}`).toBe(status);
  return (await response.json()) as T;
}

/** The workspace's runs as id and status (a pending run's reason may be rewritten meanwhile: that is no change). */
const runsOf = async (token: string) => (await rest<RestRun[]>('/api/v1/tasks?limit=1000', token)).map(({ id, status }) => ({ id, status }));
const idsOf = (answer: Structured) => (answer.items as { id: string }[]).map((item) => item.id);

/** A user with a workspace of their own holding a test, a machine (registered over REST, with a region), a config, a pending run and a finished run with log lines. */
async function workspace(name: string, region: string): Promise<Workspace> {
  const { token, jwt } = await ts.apiToken(name);
  const testId = await seedTest(ts, token, `${name} test`);
  const machine = await rest<RestMachine>(
    '/api/v1/machines',
    token,
    { method: 'POST', json: { name: `${name} generator`, hostname: `${name}-gen`, ip_address: '10.0.0.7', region } },
    201,
  );
  const config = await rest<{ id: string }>('/api/v1/configs', token, { method: 'POST', json: { name: `${name} config`, vus: 2, duration: '10s' } }, 201);
  const pending = await seedPendingRun(ts, token, testId);
  const finished = await seedFinishedRun(ts, token, testId, { p50: 10, p95: 20, p99: 30, error_rate: 0, requests_per_sec: 5, total_requests: 50 });
  // Stored log lines of the finished run, as the log store keeps an agent's output.
  const stored = await ts.service.runs.logs.append(finished.id, null, [
    { source: 'out', text: `${name}: first line of the run`, ts: Date.now() },
    { source: 'err', text: `${name}: second line of the run`, ts: Date.now() },
  ]);
  expect(stored.lines.length).toBe(2);
  return { token, jwt, client: await httpClient(ts.url, token), testId, machineId: machine.id, configId: config.id, pending, finished };
}

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  await ts.listen();
  a = await workspace('tenancy-a', 'eu-west-1');
  b = await workspace('tenancy-b', 'us-east-2');
  // OTLP points on A's finished run: metric bytes A stores, and B does not.
  const otlp = await ts.request('/api/v1/otlp/v1/metrics', {
    method: 'POST',
    token: a.token,
    json: exportBody({ resource: { 'loadplane.task_id': a.finished.id }, metrics: [gauge('queue.depth', [{ ms: Date.now() - 2000, value: 3 }, { ms: Date.now() - 1000, value: 4 }])] }),
  });
  expect(otlp.status).toBe(200);
  expect(await otlp.json()).toEqual({});
}, 60_000);

afterAll(async () => {
  await a?.client.close();
  await b?.client.close();
  await ts?.stop();
});

describe("workspace B's token with workspace A's ids", () => {
  test('get_run, get_test, get_machine and get_run_logs answer not_found tool errors; A reads the same ids', async () => {
    const reads: [string, Record<string, unknown>][] = [
      ['get_run', { run_id: a.pending.id }],
      ['get_run', { run_id: a.pending.public_id }],
      ['get_run', { run_id: a.finished.id }],
      ['get_test', { test_id: a.testId }],
      ['get_machine', { machine_id: a.machineId }],
      // By hostname too: B's list is scanned, never A's.
      ['get_machine', { machine_id: 'tenancy-a-gen' }],
      ['get_run_logs', { run_id: a.finished.id }],
      ['get_run_logs', { run_id: a.finished.public_id }],
    ];
    for (const [name, args] of reads) {
      const refused = await callError(b.client, name, args);
      expect(refused, `${name} ${JSON.stringify(args)}`).toMatchObject({ error: 'not_found', status: 404 });
      // Nothing of A's but the argument given is in the error: no name, no other id.
      const text = JSON.stringify(refused);
      const given = Object.values(args);
      for (const secret of ['tenancy-a test', 'tenancy-a generator', a.testId, a.machineId, a.pending.id, a.pending.public_id, a.finished.id, a.finished.public_id]) {
        if (!given.includes(secret)) expect(text, `${name} ${JSON.stringify(args)}`).not.toContain(secret);
      }
      // The ids are real: A's own token reads them.
      await call(a.client, name, args);
    }
    const logs = await call(a.client, 'get_run_logs', { run_id: a.finished.id });
    expect((logs.lines as { text: string }[]).map((line) => line.text)).toEqual(['tenancy-a: first line of the run', 'tenancy-a: second line of the run']);
    // runs_by_machine filters B's own runs: A's machine has none there.
    expect(await call(b.client, 'runs_by_machine', { machine_id: a.machineId })).toMatchObject({ items: [] });
  });

  test('cancel_run and run_test answer not_found and change nothing: A\'s run still pending, no run started anywhere', async () => {
    const aBefore = await runsOf(a.token);
    const bBefore = await runsOf(b.token);
    const attempts: [string, Record<string, unknown>][] = [
      ['cancel_run', { run_id: a.pending.id }],
      ['cancel_run', { run_id: a.pending.public_id }],
      ['run_test', { test_id: a.testId }],
      ['run_test', { test_id: a.testId, machine_ids: [a.machineId] }],
      // B's own test on A's machine, or with A's load configuration.
      ['run_test', { test_id: b.testId, machine_ids: [a.machineId] }],
      ['run_test', { test_id: b.testId, config_id: a.configId }],
      // Writes to A's test and config by id.
      ['write_test', { test_id: a.testId, name: 'taken over' }],
      ['write_config', { config_id: a.configId, name: 'taken over' }],
    ];
    for (const [name, args] of attempts) {
      expect(await callError(b.client, name, args), `${name} ${JSON.stringify(args)}`).toMatchObject({ error: 'not_found', status: 404 });
    }
    expect((await rest<RestRun>(`/api/v1/tasks/${a.pending.id}`, a.token)).status).toBe('pending');
    expect(await runsOf(a.token)).toEqual(aBefore);
    expect(await runsOf(b.token)).toEqual(bBefore);
    expect((await rest<{ name: string }>(`/api/v1/tests/${a.testId}`, a.token)).name).toBe('tenancy-a test');
    expect((await rest<{ name: string }>(`/api/v1/configs/${a.configId}`, a.token)).name).toBe('tenancy-a config');
  });

  test("list_runs, list_tests, list_machines and list_configs as B hold B's ids and none of A's", async () => {
    const aIds = [a.pending.id, a.finished.id, a.testId, a.machineId, a.configId];
    const lists: [string, string[]][] = [
      ['list_runs', [b.pending.id, b.finished.id]],
      ['list_tests', [b.testId]],
      ['list_machines', [b.machineId]],
      ['list_configs', [b.configId]],
    ];
    for (const [name, own] of lists) {
      const ids = idsOf(await call(b.client, name, { limit: 200 }));
      expect(ids, name).toEqual(expect.arrayContaining(own));
      for (const id of aIds) expect(ids, name).not.toContain(id);
    }
  });
});

describe('tool arguments', () => {
  const k6Script = `import http from 'k6/http';

export const options = { vus: 1, iterations: 1 };

export default function () {
  http.get('http://127.0.0.1:9/health');
}
`;

  test('write_test with a k6 script (not steps): get_test answers the script whole, tool k6', async () => {
    const written = await call(a.client, 'write_test', { name: 'k6 by script', tool: 'k6', script: k6Script });
    expect(written).toMatchObject({ created: true, test: { name: 'k6 by script', tool: 'k6', script_bytes: new TextEncoder().encode(k6Script).byteLength } });
    const id = (written.test as { id: string }).id;
    const read = await call(a.client, 'get_test', { test_id: id });
    expect(read.test).toMatchObject({ id, name: 'k6 by script', tool: 'k6', script: k6Script, script_truncated: false });
    expect(await rest<{ tool: string; script: string }>(`/api/v1/tests/${id}`, a.token)).toMatchObject({ tool: 'k6', script: k6Script });
  });

  test('write_config with stages: list_configs answers them, with no vus or duration', async () => {
    const stages = [
      { duration: '10s', target: 5 },
      { duration: '1m', target: 5 },
      { duration: '5s', target: 0 },
    ];
    const written = await call(a.client, 'write_config', { name: 'ramp', stages });
    expect(written).toMatchObject({ created: true, config: { name: 'ramp', stages, vus: null, duration: null } });
    const id = (written.config as { id: string }).id;
    const listed = (await call(a.client, 'list_configs', { limit: 200 })).items as { id: string }[];
    expect(listed.find((config) => config.id === id)).toMatchObject({ id, name: 'ramp', stages, vus: null, duration: null });
    expect(await rest(`/api/v1/configs/${id}`, a.token)).toMatchObject({ stages });
  });

  test('run_test with machine_ids, config_id and transport: the run REST answers has those machines, that config and that transport', async () => {
    const second = await rest<RestMachine>(
      '/api/v1/machines',
      a.token,
      { method: 'POST', json: { name: 'second generator', hostname: 'tenancy-a-gen-2', ip_address: '10.0.0.8' } },
      201,
    );
    const machineIds = [a.machineId, second.id];
    const started = await call(a.client, 'run_test', { test_id: a.testId, machine_ids: machineIds, config_id: a.configId, transport: 'ws' });
    // Neither machine has an agent: the run waits for them.
    expect(started).toMatchObject({ status: 'pending' });
    const run = await rest<RestRun>(`/api/v1/tasks/${started.run_id as string}`, a.token);
    expect(run).toMatchObject({ test_id: a.testId, config_id: a.configId, transport: 'ws', status: 'pending' });
    expect([...run.machine_ids].sort()).toEqual([...machineIds].sort());
    // get_run reports the same record.
    expect((await call(a.client, 'get_run', { run_id: run.id })).run).toMatchObject({ machine_ids: run.machine_ids, transport: 'ws', config_id: a.configId });

    // The contract's other values: sse, and long_polling, which the service serves as sse.
    for (const [transport, stored] of [['sse', 'sse'], ['long_polling', 'sse']]) {
      const other = await call(a.client, 'run_test', { test_id: a.testId, machine_ids: [second.id], transport });
      expect(await rest<RestRun>(`/api/v1/tasks/${other.run_id as string}`, a.token), transport).toMatchObject({ transport: stored, machine_ids: [second.id] });
    }
    // A value outside the contract is refused by the input schema, and nothing starts.
    const before = (await runsOf(a.token)).length;
    expect((await callError(a.client, 'run_test', { test_id: a.testId, transport: 'websocket' })).message).toContain('/transport');
    expect((await runsOf(a.token)).length).toBe(before);
  });
});

describe('output fields as REST reports them', () => {
  test('get_machine and list_machines carry region and benchmark_capacity (null until calibrated, then the figure)', async () => {
    const fromRest = await rest<RestMachine>(`/api/v1/machines/${a.machineId}`, a.token);
    expect(fromRest).toMatchObject({ region: 'eu-west-1', benchmark_capacity: null });
    const got = (await call(a.client, 'get_machine', { machine_id: a.machineId })).machine as RestMachine;
    expect(Object.keys(got)).toEqual(expect.arrayContaining(['region', 'benchmark_capacity']));
    expect(got).toEqual(fromRest);
    const listed = ((await call(a.client, 'list_machines', { limit: 200 })).items as RestMachine[]).find((machine) => machine.id === a.machineId)!;
    expect(Object.keys(listed)).toEqual(expect.arrayContaining(['region', 'benchmark_capacity']));
    expect(listed).toEqual(fromRest);

    // A calibration's figure, as the agent's calibration result stores it.
    await sqlOf(ts.service.database).all('update machines set benchmark_capacity = ? where id = ?', [842.5, a.machineId]);
    const calibrated = await rest<RestMachine>(`/api/v1/machines/${a.machineId}`, a.token);
    expect(calibrated.benchmark_capacity).toBe(842.5);
    expect((await call(a.client, 'get_machine', { machine_id: a.machineId })).machine).toEqual(calibrated);
    expect(((await call(a.client, 'list_machines', { limit: 200 })).items as RestMachine[]).find((machine) => machine.id === a.machineId)).toEqual(calibrated);
    // B's machine keeps its own region.
    expect((await call(b.client, 'get_machine', { machine_id: b.machineId })).machine).toMatchObject({ region: 'us-east-2', benchmark_capacity: null });
  });

  test("limits carries the workspace's storage figures as GET /usage does, each workspace its own", async () => {
    for (const [who, workspace] of [['A', a], ['B', b]] as const) {
      const usage = await rest<{ storage: { log_bytes: number; metric_bytes: number }; machines: { used: number }; tests: { used: number } }>('/api/v1/usage', workspace.token);
      const limits = await call(workspace.client, 'limits');
      expect(limits.storage, who).toEqual(usage.storage);
      expect(limits, who).toMatchObject({ machines: { used: usage.machines.used }, tests: { used: usage.tests.used } });
      expect(limits.note, who).toBeUndefined();
    }
    // The seeded lines: A's two lines are A's bytes, B's two are B's; only A holds metric points.
    const aStorage = (await rest<{ storage: { log_bytes: number; metric_bytes: number } }>('/api/v1/usage', a.token)).storage;
    const bStorage = (await rest<{ storage: { log_bytes: number; metric_bytes: number } }>('/api/v1/usage', b.token)).storage;
    const lineBytes = (name: string) => new TextEncoder().encode(`${name}: first line of the run${name}: second line of the run`).byteLength;
    expect(aStorage.log_bytes).toBe(lineBytes('tenancy-a'));
    expect(bStorage.log_bytes).toBe(lineBytes('tenancy-b'));
    expect(aStorage.metric_bytes).toBeGreaterThan(0);
    expect(bStorage.metric_bytes).toBe(0);
  });
});
