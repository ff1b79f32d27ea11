/**
 * The per-route isolation walk, over a real socket: two workspaces with real resources created through the API, then
 * every /api/v1 route (taken from the app's route list, so a new route without a case fails the walk) is called by
 * workspace B with workspace A's REAL ids, and must answer the plain 404 (never 2xx, never A's data); list routes must
 * show B nothing of A. Then A's own calls on the same ids get their expected 2xx. The task's WebSocket stream, another
 * user's token, config PATCH/DELETE, member PATCH, a run with a foreign configId or machineIds, and an agent reporting
 * on an assignment that is not its own are among the cases.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { newPublicId } from '../../core/domain/public-id.ts';
import { policyKey } from '../../core/http/route-policy.ts';
import { buildIsolationWorld, type Call, histogram, type Json, rawAgent as rawAgentAt, type WorkspaceA, type WorkspaceB } from '../helpers/isolation-world.ts';
import { freePort } from '../helpers/service-process.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { readSse, upgradeAttempt } from '../helpers/stream-clients.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';
import { insertPoints } from '../helpers/metric-points.ts';
import { storeIntervalEndpoints } from '../../core/services/metrics/run-endpoints.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { Task } from '../../core/domain/entities/task.ts';

let ts: TestService;
let base: string;
let call: Call;
let a: WorkspaceA;
let b: WorkspaceB;

const rawAgent = (token: string, hostname: string) => rawAgentAt(base, token, hostname);

beforeAll(async () => {
  ts = await startTestService({ port: await freePort(), env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  base = await ts.listen();
  ({ a, b, call } = await buildIsolationWorld(ts, base));
  // A's run has a time series (from A's own machine), so the metric routes have something of A's to keep from B.
  const now = Math.floor(Date.now() / 1000);
  await insertPoints(
    ts,
    { workspaceId: a.workspaceId, taskId: String(a.task.id), testId: String(a.test.id) },
    [1, 2, 3].map((s) => ({ machineId: String(a.machine.id), t: now - s, latencies: [5, 6], errors: 1 })),
  );
  // And results per endpoint, with an error group, as an agent's interval stores them.
  const endpointHistogram = new LatencyHistogram();
  endpointHistogram.record(5);
  endpointHistogram.record(6);
  await storeIntervalEndpoints(
    sqlOf(ts.service.database),
    { workspaceId: a.workspaceId, taskId: String(a.task.id), machineId: String(a.machine.id) },
    {
      ...{ histogram: endpointHistogram.encode(), requests: 2, errors: 1, startedAt: (now - 2) * 1000, endedAt: (now - 1) * 1000 },
      endpoints: [{ name: 'walk-a endpoint', requests: 2, errors: 1, histogram: endpointHistogram.encode() }],
      errorGroups: [{ endpoint: 'walk-a endpoint', kind: 'status', code: '500', message: 'walk-a error', count: 1 }],
    },
  );
}, 120_000);

afterAll(async () => {
  await a?.agent.stop();
  await ts.stop();
});

// ---------------------------------------------------------------------------------------------------------------------
// One case per route.

interface Probe {
  label: string;
  response: Response;
  /** The same call with A's ids swapped for ones that exist nowhere (ids mapped back in its text). */
  twin: { status: number; text: string };
  /** What B itself sent (path and body): an id of A's that B typed may be echoed back, nothing else of A's. */
  sent: string;
}

interface RouteCase {
  /** B's calls with A's real ids (as B's JWT and as B's API token): each answers the plain 404. */
  foreign?: (bearer: string) => Promise<Probe[]>;
  /** B's call on this route without an id of A's: its status, and an answer with nothing of A's in it. */
  clean?: { status: number; call: (bearer: string) => Promise<Response> };
  /** A check of its own (the agent socket), with its assertions inside. */
  custom?: () => Promise<void>;
  /** A's allowed call on its own ids, with the exact status it must get; run in this table's order, destructive last. */
  own: { status: number; call: () => Promise<Response | number> };
}

const wsUrl = (path: string) => `${base.replace(/^http/, 'ws')}/api/v1${path}`;
/** A's UUIDs and the task's public id, each with a look-alike that exists nowhere. */
const lookAlikes = () =>
  a.markers
    .filter((marker) => /^[0-9a-f-]{36}$/.test(marker) || /^run-/.test(marker))
    .map((marker) => [marker, marker.startsWith('run-') ? newPublicId() : crypto.randomUUID()] as const);

/**
 * One call of B's with A's real ids, and the same call with ids that exist nowhere: both must answer alike (status and
 * body, ids aside), so the answer is no oracle for what exists in another workspace.
 */
async function probe(label: string, bearer: string, method: string, path: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Probe> {
  const send = (target: string, json: unknown) =>
    method === 'WS' ? upgradeAttempt(wsUrl(target), bearer) : call(bearer, method, target, { ...options, json });
  const swaps = lookAlikes();
  const swap = (text: string) => swaps.reduce((out, [real, fake]) => out.replaceAll(real, fake), text);
  const unswap = (text: string) => swaps.reduce((out, [real, fake]) => out.replaceAll(fake, real), text);
  const response = await send(path, options.json);
  const twin = await send(swap(path), options.json === undefined ? undefined : JSON.parse(swap(JSON.stringify(options.json))));
  return { label, response, twin: { status: twin.status, text: unswap(await twin.text()) }, sent: `${path} ${JSON.stringify(options.json ?? null)}` };
}

/** A's own WebSocket on its task: the upgrade succeeds and the stored line arrives first. */
function ownTaskSocket(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(`/tasks/${a.task.public_id}/ws`), { headers: { authorization: `Bearer ${a.jwt}` } } as unknown as string[]);
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as Json;
      socket.close();
      resolve(message.type === 'log' && message.text === 'walk-a line 1' ? 101 : 500);
    });
    socket.addEventListener('close', (event) => reject(new Error(`task socket closed first: ${event.code} ${event.reason}`)));
  });
}

async function ownSse(): Promise<number> {
  const response = await call(a.jwt, 'GET', `/tasks/${a.task.id}/log-stream`);
  if (response.headers.get('content-type')?.startsWith('text/event-stream') !== true) return 500;
  const { events } = await readSse(response, (seen) => seen.length >= 1);
  return events[0]?.data.text === 'walk-a line 1' ? response.status : 500;
}

async function ownAgentSocket(): Promise<number> {
  const agent = await rawAgent(a.agentToken, 'walk-a-gen-2');
  agent.socket.close();
  return agent.welcome.machineId ? 101 : 500;
}

/** B's agent connects (claiming A's hostname) and reports on A's assignment: none of it may touch A's run. */
async function agentReportsOnForeignAssignment() {
  const intruder = await rawAgent(b.agentToken, 'walk-a-gen');
  expect(intruder.welcome.machineId).not.toBe(a.machine.id);
  const assignmentId = a.assignmentId;
  const summary = { histogram: histogram(), requests: 10, errors: 0, startedAt: Date.now() - 1000, endedAt: Date.now() };
  intruder.send({ type: 'started', assignmentId });
  intruder.send({ type: 'log', assignmentId, seq: 2, lines: [{ source: 'out', text: 'walk-b intruder line', ts: Date.now() }] });
  const endpoints = [{ name: 'walk-b endpoint', requests: 10, errors: 0, histogram: histogram() }];
  const errorGroups = [{ endpoint: 'walk-b endpoint', kind: 'status', code: '500', message: 'walk-b error', count: 1 }];
  intruder.send({ type: 'metrics', assignmentId, snapshot: { ...summary, endpoints, errorGroups } });
  intruder.send({ type: 'finished', assignmentId, status: 'failed', reason: 'walk-b says so', exitCode: 1, summary });
  intruder.send({ type: 'start_failed', assignmentId, message: 'walk-b says so' });
  // The server handles a socket's messages in order: a heartbeat round trip is not needed, a short wait is.
  await Bun.sleep(500);
  intruder.socket.close();

  // A's run goes on: still running on A's machine, and A's own next line is the only new one.
  a.agent.log(assignmentId, ['walk-a line 2']);
  const task = (await (await call(a.jwt, 'GET', `/tasks/${a.task.id}`)).json()) as Json;
  expect(task).toMatchObject({ status: 'running', machine_ids: [a.machine.id], error: null, total_requests: 0 });
  const { events } = await readSse(await call(a.jwt, 'GET', `/tasks/${a.task.id}/log-stream`), (seen) => seen.some((e) => e.data.text === 'walk-a line 2'));
  expect(events.map((e) => e.data.text)).toEqual(['walk-a line 1', 'walk-a line 2']);
  const rows = (await ts.service.database.fork().getConnection().execute(
    `select machine_id, status from task_assignments where id = '${assignmentId}'`,
  )) as { machine_id: string; status: string }[];
  expect(rows).toEqual([{ machine_id: String(a.machine.id), status: 'running' }]);
  // A's run keeps only the points of A's own machine (the walk seeded some); none of the intruder's landed on it.
  const points = (await ts.service.database.fork().getConnection().execute(
    `select count(*)::int as n from task_metric_points where task_id = '${a.task.id}' and machine_id <> '${a.machine.id}'`,
  )) as { n: number }[];
  expect(points[0]!.n).toBe(0);
  // Nor its results per endpoint or errors.
  const foreignResults = (await ts.service.database.fork().getConnection().execute(
    `select (select count(*)::int from task_endpoint_minutes where task_id = '${a.task.id}' and machine_id <> '${a.machine.id}')
       + (select count(*)::int from task_error_groups where task_id = '${a.task.id}' and message like 'walk-b%') as n`,
  )) as { n: number }[];
  expect(foreignResults[0]!.n).toBe(0);
}

/** A finished run of A's test (the walk's own run is still going): the baseline A sets, and the base A compares with. */
let finishedOfA: Promise<string> | undefined;
const finishedRunOfA = () =>
  (finishedOfA ??= (async () => {
    const em = ts.service.database.fork();
    const id = crypto.randomUUID();
    const finishedAt = new Date();
    em.create(Task, {
      ...{ id, publicId: newPublicId(), workspaceId: a.workspaceId, testId: String(a.test.id), configId: null, status: 'completed', transport: 'sse' },
      ...{ requestedMachineIds: [], machineCount: 1, createdBy: null, errorMessage: null, thresholds: [], verdict: null, thresholdResults: [] },
      ...{ p50: 5, p95: 6, p99: 6, errorRate: 0.5, requestsPerSec: 2, totalRequests: 6, logLines: 0, logSeq: 0, pendingUntil: null, pendingReason: null },
      ...{ logTruncated: false, createdAt: new Date(finishedAt.getTime() - 60_000), startedAt: new Date(finishedAt.getTime() - 50_000), finishedAt },
    });
    await em.flush();
    return id;
  })());

/** A's own metric call: 200 only when A's answer holds `expected` (A's run id): the routes do read A's series. */
const ownMetric = (path: string, expected: string, method = 'GET') => async () => {
  const response = await call(a.jwt, method, path);
  const text = await response.text();
  return response.status === 200 && text.includes(expected) ? 200 : new Response(text, { status: response.status === 200 ? 500 : response.status });
};
/** An OTLP JSON export of one gauge point per entry: at `ms`, naming `taskRef` by loadplane.task_id (or none). */
const otlpExport = (points: { taskRef: string | null; ms: number }[]) => ({
  resourceMetrics: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'walk' } }] },
      scopeMetrics: [
        {
          metrics: [
            {
              name: 'walk.gauge',
              gauge: {
                dataPoints: points.map((point, i) => ({
                  timeUnixNano: `${BigInt(point.ms) * 1_000_000n}`,
                  asDouble: i,
                  attributes: point.taskRef === null ? [] : [{ key: 'loadplane.task_id', value: { stringValue: point.taskRef } }],
                })),
              },
            },
          ],
        },
      ],
    },
  ],
});

/**
 * B sends OTLP points naming A's task (UUID and public id) and points with no task while A's run is running: none may
 * land in A's run (B has no active run: refused), and the answer for A's real ids reads as for ids that exist nowhere.
 */
async function otlpPointsForForeignRun() {
  for (const bearer of [b.jwt, b.token]) {
    const send = (ids: [string, string]) =>
      call(bearer, 'POST', '/otlp/v1/metrics', { json: otlpExport([{ taskRef: ids[0], ms: Date.now() }, { taskRef: ids[1], ms: Date.now() }, { taskRef: null, ms: Date.now() }]) });
    const real = await send([String(a.task.id), String(a.task.public_id)]);
    const text = await real.text();
    expect(real.status, text).toBe(200);
    const answer = JSON.parse(text) as { partialSuccess: { rejectedDataPoints: string; errorMessage: string } };
    expect(answer.partialSuccess.rejectedDataPoints).toBe('3');
    const swaps = lookAlikes();
    const fakeUuid = swaps.find(([real]) => real === String(a.task.id))![1];
    const fakePublic = swaps.find(([real]) => real === String(a.task.public_id))![1];
    const twin = await (await send([fakeUuid, fakePublic])).text();
    expect(twin.replace(fakeUuid, String(a.task.id)).replace(fakePublic, String(a.task.public_id)), 'real and made-up task ids answer alike').toBe(text);
    for (const marker of a.markers.filter((m) => m !== a.task.id && m !== a.task.public_id)) expect(text, `OTLP answer leaks ${marker}`).not.toContain(marker);
  }
  const rows = (await ts.service.database.fork().getConnection().execute(`select count(*)::int as n from otel_series where task_id = '${a.task.id}'`)) as { n: number }[];
  expect(rows[0]!.n).toBe(0);
}

function cases(): Record<string, RouteCase> {
  const task = () => [String(a.task.id), String(a.task.public_id)];
  return {
    'GET /api/v1/auth/me': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/auth/me') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/auth/me') },
    },
    'GET /api/v1/auth/me/workspaces': {
      // Only the caller's own workspaces: B never sees A's.
      clean: { status: 200, call: (t) => call(t, 'GET', '/auth/me/workspaces') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/auth/me/workspaces') },
    },
    'GET /api/v1/machines': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/machines') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/machines') },
    },
    'POST /api/v1/machines': {
      // A's hostname is free in B: B gets a machine of its own, and learns nothing of A's.
      clean: {
        status: 201,
        call: (t) => call(t, 'POST', '/machines', { json: { name: 'b-copy', hostname: t === b.jwt ? 'walk-a-spare.example' : 'walk-a-new.example', ip_address: '10.1.0.2' } }),
      },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/machines', { json: { name: 'walk-a-new', hostname: 'walk-a-new.example', ip_address: '10.0.0.10' } }) },
    },
    'DELETE /api/v1/machines/:id': {
      foreign: async (t) => [await probe('machine', t, 'DELETE', `/machines/${a.spareMachine.id}`), await probe('agent machine', t, 'DELETE', `/machines/${a.machine.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/machines/${a.spareMachine.id}`) },
    },
    'GET /api/v1/machines/:id': {
      foreign: async (t) => [await probe('machine', t, 'GET', `/machines/${a.spareMachine.id}`), await probe('agent machine', t, 'GET', `/machines/${a.machine.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/machines/${a.machine.id}`) },
    },
    'POST /api/v1/machines/:id/calibrate': {
      foreign: async (t) => [await probe('machine', t, 'POST', `/machines/${a.spareMachine.id}/calibrate`), await probe('agent machine', t, 'POST', `/machines/${a.machine.id}/calibrate`)],
      // A's connected agent is asked to calibrate (the protocol agent ignores the command).
      own: { status: 202, call: () => call(a.jwt, 'POST', `/machines/${a.machine.id}/calibrate`) },
    },
    'GET /api/v1/tests': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/tests') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/tests') },
    },
    'POST /api/v1/tests': {
      clean: { status: 201, call: (t) => call(t, 'POST', '/tests', { json: { name: 'b-more', tool: 'k6', script: 'export default function () {}' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/tests', { json: { name: 'walk-a-more', tool: 'k6', script: 'export default function () {}' } }) },
    },
    'GET /api/v1/tests/:id': {
      foreign: async (t) => [await probe('test', t, 'GET', `/tests/${a.test.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/tests/${a.test.id}`) },
    },
    'PATCH /api/v1/tests/:id': {
      foreign: async (t) => [await probe('test', t, 'PATCH', `/tests/${a.test.id}`, { json: { name: 'stolen' } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/tests/${a.test.id}`, { json: { name: 'walk-a-test renamed' } }) },
    },
    'PUT /api/v1/tests/:id/baseline': {
      foreign: async (t) => [
        await probe('test', t, 'PUT', `/tests/${a.test.id}/baseline`, { json: { task_id: String(a.task.id) } }),
        await probe("A's run as B's test's baseline", t, 'PUT', `/tests/${b.test.id}/baseline`, { json: { task_id: String(a.task.public_id) } }),
      ],
      own: { status: 200, call: async () => call(a.jwt, 'PUT', `/tests/${a.test.id}/baseline`, { json: { task_id: await finishedRunOfA() } }) },
    },
    'DELETE /api/v1/tests/:id/baseline': {
      foreign: async (t) => [await probe('test', t, 'DELETE', `/tests/${a.test.id}/baseline`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/tests/${a.test.id}/baseline`) },
    },
    'GET /api/v1/tests/:id/trend': {
      foreign: async (t) => [await probe('test', t, 'GET', `/tests/${a.test.id}/trend`), await probe('test, with a limit', t, 'GET', `/tests/${a.test.id}/trend?limit=5`)],
      own: { status: 200, call: async () => ownMetric(`/tests/${a.test.id}/trend`, await finishedRunOfA())() },
    },
    'DELETE /api/v1/tests/:id': {
      foreign: async (t) => [await probe('test', t, 'DELETE', `/tests/${a.spareTest.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/tests/${a.spareTest.id}`) },
    },
    'GET /api/v1/api-tokens': {
      clean: { status: 200, call: (t) => (t === b.token ? call(b.jwt, 'GET', '/api-tokens') : call(t, 'GET', '/api-tokens')) },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/api-tokens') },
    },
    'POST /api/v1/api-tokens': {
      clean: { status: 201, call: () => call(b.jwt, 'POST', '/api-tokens', { json: { name: 'b-extra' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/api-tokens', { json: { name: 'walk-a-extra' } }) },
    },
    'DELETE /api/v1/api-tokens/:id': {
      // B, and A's own admin: a token is its creator's alone.
      foreign: async (t) => [
        await probe('B revokes', t === b.token ? b.jwt : t, 'DELETE', `/api-tokens/${a.token.id}`),
        await probe("A's admin revokes the owner's", a.admin.jwt, 'DELETE', `/api-tokens/${a.token.id}`, { headers: { 'x-workspace-id': a.workspaceId } }),
      ],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/api-tokens/${a.spareTokens[0]!.id}`) },
    },
    'POST /api/v1/api-tokens/:id/rotate': {
      foreign: async (t) => [
        await probe('B rotates', t === b.token ? b.jwt : t, 'POST', `/api-tokens/${a.token.id}/rotate`),
        await probe("A's admin rotates the owner's", a.admin.jwt, 'POST', `/api-tokens/${a.token.id}/rotate`, { headers: { 'x-workspace-id': a.workspaceId } }),
      ],
      own: { status: 200, call: () => call(a.jwt, 'POST', `/api-tokens/${a.spareTokens[1]!.id}/rotate`) },
    },
    'GET /api/v1/workspace': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/workspace') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/workspace') },
    },
    // B's calls count against B's budget; A's count is in the snapshot, so B cannot have spent A's.
    'GET /api/v1/usage': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/usage') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/usage') },
    },
    'POST /api/v1/usage/ai-tool-calls': {
      clean: { status: 200, call: (t) => call(t, 'POST', '/usage/ai-tool-calls') },
      own: { status: 200, call: () => call(a.jwt, 'POST', '/usage/ai-tool-calls') },
    },
    // ASK AI (plugin mcp): B sees and sets only its own workspace's model; this world has none, so a question is a 409.
    'GET /api/v1/assistant': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/assistant') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/assistant') },
    },
    'GET /api/v1/assistant/settings': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/assistant/settings') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/assistant/settings') },
    },
    'PUT /api/v1/assistant/settings': {
      clean: { status: 200, call: (t) => call(t, 'PUT', '/assistant/settings', { json: { enabled: true } }) },
      own: { status: 200, call: () => call(a.jwt, 'PUT', '/assistant/settings', { json: { enabled: true } }) },
    },
    'POST /api/v1/assistant/chat': {
      clean: { status: 409, call: (t) => call(t, 'POST', '/assistant/chat', { json: { messages: [{ role: 'user', content: 'walk-b' }] } }) },
      own: { status: 409, call: () => call(a.jwt, 'POST', '/assistant/chat', { json: { messages: [{ role: 'user', content: 'walk-a' }] } }) },
    },
    'PATCH /api/v1/workspace': {
      clean: { status: 200, call: () => call(b.jwt, 'PATCH', '/workspace', { json: { name: 'b renamed' } }) },
      own: { status: 200, call: () => call(a.jwt, 'PATCH', '/workspace', { json: { name: 'walk-a workspace' } }) },
    },
    'GET /api/v1/members': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/members') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/members') },
    },
    'POST /api/v1/members': {
      // A member's user id of A is no handle anyone can be invited by: the same 404 as any nobody.
      foreign: async () => [await probe("A's admin by user id", b.jwt, 'POST', '/members', { json: { user: a.admin.userId, role: 'member' } })],
      own: { status: 201, call: () => call(a.jwt, 'POST', '/members', { json: { user: 'walk-b-owner', role: 'viewer' } }) },
    },
    'PATCH /api/v1/members/:userId': {
      foreign: async () => [await probe("A's admin", b.jwt, 'PATCH', `/members/${a.admin.userId}`, { json: { role: 'viewer' } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/members/${a.admin.userId}`, { json: { role: 'member' } }) },
    },
    'DELETE /api/v1/members/:userId': {
      foreign: async () => [
        await probe("A's admin", b.jwt, 'DELETE', `/members/${a.admin.userId}`),
        await probe("A's owner", b.jwt, 'DELETE', `/members/${a.userId}`),
      ],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/members/${a.admin.userId}`) },
    },
    'GET /api/v1/members/invitations': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/members/invitations') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/members/invitations') },
    },
    'DELETE /api/v1/members/invitations/:id': {
      foreign: async () => [await probe("A's invitation", b.jwt, 'DELETE', `/members/invitations/${a.invitees[0]!.invitationId}`)],
      own: {
        status: 204,
        call: async () => {
          const pending = (await (await call(a.jwt, 'GET', '/members/invitations')).json()) as { id: string; user: string }[];
          return call(a.jwt, 'DELETE', `/members/invitations/${pending.find((i) => i.user === 'walk-b-owner')!.id}`);
        },
      },
    },
    'GET /api/v1/webhooks': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/webhooks') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/webhooks') },
    },
    'POST /api/v1/webhooks': {
      clean: { status: 201, call: () => call(b.jwt, 'POST', '/webhooks', { json: { url: String(a.webhook.url), events: ['test.failed'] } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/webhooks', { json: { url: String(a.webhook.url), events: ['test.completed'] } }) },
    },
    'GET /api/v1/webhooks/:id': {
      foreign: async () => [await probe('webhook', b.jwt, 'GET', `/webhooks/${a.webhook.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/webhooks/${a.webhook.id}`) },
    },
    'PATCH /api/v1/webhooks/:id': {
      foreign: async () => [await probe('webhook', b.jwt, 'PATCH', `/webhooks/${a.webhook.id}`, { json: { enabled: false } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/webhooks/${a.webhook.id}`, { json: { description: 'walk-a-webhook renamed' } }) },
    },
    'DELETE /api/v1/webhooks/:id': {
      foreign: async () => [await probe('webhook', b.jwt, 'DELETE', `/webhooks/${a.spareWebhook.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/webhooks/${a.spareWebhook.id}`) },
    },
    'POST /api/v1/webhooks/:id/rotate': {
      foreign: async () => [await probe('webhook', b.jwt, 'POST', `/webhooks/${a.webhook.id}/rotate`)],
      own: { status: 200, call: () => call(a.jwt, 'POST', `/webhooks/${a.webhook.id}/rotate`) },
    },
    'POST /api/v1/webhooks/:id/test': {
      foreign: async () => [await probe('webhook', b.jwt, 'POST', `/webhooks/${a.webhook.id}/test`)],
      own: { status: 202, call: () => call(a.jwt, 'POST', `/webhooks/${a.webhook.id}/test`) },
    },
    'GET /api/v1/webhooks/:id/deliveries': {
      foreign: async () => [await probe('webhook', b.jwt, 'GET', `/webhooks/${a.webhook.id}/deliveries`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/webhooks/${a.webhook.id}/deliveries`) },
    },
    'POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver': {
      foreign: async () => [await probe('delivery', b.jwt, 'POST', `/webhooks/${a.webhook.id}/deliveries/${a.deliveryId}/redeliver`)],
      own: {
        status: 202,
        call: async () => {
          // A finished delivery can be sent again: wait for the receiver's 200 first.
          const state = async () =>
            ((await (await call(a.jwt, 'GET', `/webhooks/${a.webhook.id}/deliveries?limit=1000`)).json()) as { id: string; state: string }[]).find((d) => d.id === a.deliveryId)?.state;
          await waitFor(async () => (await state()) !== 'waiting', 30_000, "walk A's delivery to finish");
          return call(a.jwt, 'POST', `/webhooks/${a.webhook.id}/deliveries/${a.deliveryId}/redeliver`);
        },
      },
    },
    'GET /api/v1/env-vars': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/env-vars') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/env-vars') },
    },
    'PUT /api/v1/env-vars/:key': {
      // Names are per workspace: B setting A's name makes B's own variable (checked below: A's value is untouched).
      clean: { status: 201, call: (t) => call(t, 'PUT', `/env-vars/${t === b.jwt ? a.envKey : 'B_BY_TOKEN'}`, { json: { value: 'b-own-value' } }) },
      own: { status: 200, call: () => call(a.jwt, 'PUT', `/env-vars/${a.envKey}`, { json: { value: a.envValue } }) },
    },
    'DELETE /api/v1/env-vars/:key': {
      foreign: async (t) => [await probe('env var', t, 'DELETE', `/env-vars/${a.spareEnvKey}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/env-vars/${a.spareEnvKey}`) },
    },
    'GET /api/v1/dashboards': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/dashboards') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/dashboards') },
    },
    'POST /api/v1/dashboards': {
      clean: { status: 201, call: (t) => call(t, 'POST', '/dashboards', { json: { name: 'b-dashboard' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/dashboards', { json: { name: 'walk-a-dashboard-2' } }) },
    },
    'GET /api/v1/dashboards/:id': {
      foreign: async (t) => [await probe('dashboard', t, 'GET', `/dashboards/${a.dashboard.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/dashboards/${a.dashboard.id}`) },
    },
    'PUT /api/v1/dashboards/:id': {
      foreign: async (t) => [await probe('dashboard', t, 'PUT', `/dashboards/${a.dashboard.id}`, { json: { name: 'stolen', panels: [] } })],
      own: { status: 200, call: () => call(a.jwt, 'PUT', `/dashboards/${a.dashboard.id}`, { json: { name: 'walk-a-dashboard renamed' } }) },
    },
    'DELETE /api/v1/dashboards/:id': {
      foreign: async (t) => [await probe('dashboard', t, 'DELETE', `/dashboards/${a.spareDashboard.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/dashboards/${a.spareDashboard.id}`) },
    },
    'GET /api/v1/git-repos': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/git-repos') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/git-repos') },
    },
    'POST /api/v1/git-repos': {
      clean: { status: 201, call: (t) => call(t, 'POST', '/git-repos', { json: { url: 'http://127.0.0.1:9/b.git' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/git-repos', { json: { url: 'http://127.0.0.1:9/walk-a-2.git' } }) },
    },
    'GET /api/v1/git-repos/:id': {
      foreign: async (t) => [await probe('git repo', t, 'GET', `/git-repos/${a.gitRepo.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/git-repos/${a.gitRepo.id}`) },
    },
    'PATCH /api/v1/git-repos/:id': {
      foreign: async (t) => [await probe('git repo', t, 'PATCH', `/git-repos/${a.gitRepo.id}`, { json: { branch: 'stolen', credentials: null } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/git-repos/${a.gitRepo.id}`, { json: { branch: 'develop' } }) },
    },
    'DELETE /api/v1/git-repos/:id': {
      foreign: async (t) => [await probe('git repo', t, 'DELETE', `/git-repos/${a.spareGitRepo.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/git-repos/${a.spareGitRepo.id}`) },
    },
    'POST /api/v1/git-repos/:id/sync': {
      foreign: async (t) => [await probe('git repo', t, 'POST', `/git-repos/${a.gitRepo.id}/sync`)],
      own: { status: 202, call: () => call(a.jwt, 'POST', `/git-repos/${a.gitRepo.id}/sync`) },
    },
    // Remote MCP servers: B's list of tools holds none of A's servers; B cannot call, read or change them.
    'GET /api/v1/mcp-servers': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/mcp-servers') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/mcp-servers') },
    },
    'POST /api/v1/mcp-servers': {
      clean: { status: 201, call: (t) => call(t, 'POST', '/mcp-servers', { json: { name: `b-${crypto.randomUUID().slice(0, 8)}`, url: 'http://127.0.0.1:9/mcp' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/mcp-servers', { json: { name: 'walk-a-mcp-2', url: 'http://127.0.0.1:9/mcp' } }) },
    },
    'GET /api/v1/mcp-servers/tools': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/mcp-servers/tools') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/mcp-servers/tools') },
    },
    'GET /api/v1/mcp-servers/:id': {
      foreign: async (t) => [await probe('mcp server', t, 'GET', `/mcp-servers/${a.mcpServer.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/mcp-servers/${a.mcpServer.id}`) },
    },
    'POST /api/v1/mcp-servers/:id/call': {
      foreign: async (t) => [await probe('mcp server', t, 'POST', `/mcp-servers/${a.mcpServer.id}/call`, { json: { tool: 'echo', arguments: { text: 'walk-b' } } })],
      own: { status: 200, call: () => call(a.jwt, 'POST', `/mcp-servers/${a.mcpServer.id}/call`, { json: { tool: 'echo', arguments: { text: 'walk-a' } } }) },
    },
    'PATCH /api/v1/mcp-servers/:id': {
      foreign: async (t) => [await probe('mcp server', t, 'PATCH', `/mcp-servers/${a.mcpServer.id}`, { json: { name: 'stolen', headers: { 'x-api-key': null } } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/mcp-servers/${a.mcpServer.id}`, { json: { headers: { 'x-walk': 'a' } } }) },
    },
    'DELETE /api/v1/mcp-servers/:id': {
      foreign: async (t) => [await probe('mcp server', t, 'DELETE', `/mcp-servers/${a.spareMcpServer.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/mcp-servers/${a.spareMcpServer.id}`) },
    },
    'GET /api/v1/notification-preferences': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/notification-preferences') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/notification-preferences') },
    },
    'PUT /api/v1/notification-preferences': {
      clean: { status: 200, call: () => call(b.jwt, 'PUT', '/notification-preferences', { json: { email: { on_failed: true, on_completed: false } } }) },
      own: { status: 200, call: () => call(a.jwt, 'PUT', '/notification-preferences', { json: { email: { on_failed: true, on_completed: true } } }) },
    },
    'GET /api/v1/auth/me/invitations': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/auth/me/invitations') },
      own: { status: 200, call: () => call(a.invitees[0]!.jwt, 'GET', '/auth/me/invitations') },
    },
    'POST /api/v1/auth/me/invitations/:id/accept': {
      foreign: async () => [
        await probe('B accepts', b.jwt, 'POST', `/auth/me/invitations/${a.invitees[0]!.invitationId}/accept`),
        await probe('the inviter accepts', a.jwt, 'POST', `/auth/me/invitations/${a.invitees[0]!.invitationId}/accept`),
      ],
      own: { status: 200, call: () => call(a.invitees[0]!.jwt, 'POST', `/auth/me/invitations/${a.invitees[0]!.invitationId}/accept`) },
    },
    'DELETE /api/v1/auth/me/invitations/:id': {
      foreign: async () => [await probe('B declines', b.jwt, 'DELETE', `/auth/me/invitations/${a.invitees[1]!.invitationId}`)],
      own: { status: 204, call: () => call(a.invitees[1]!.jwt, 'DELETE', `/auth/me/invitations/${a.invitees[1]!.invitationId}`) },
    },
    'GET /api/v1/access-controls': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/access-controls') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/access-controls') },
    },
    'PUT /api/v1/access-controls': {
      clean: { status: 200, call: () => call(b.jwt, 'PUT', '/access-controls', { json: { roles: { viewer: [] } } }) },
      own: { status: 200, call: () => call(a.jwt, 'PUT', '/access-controls', { json: { roles: { viewer: [] } } }) },
    },
    'GET /api/v1/audit-log': {
      clean: { status: 200, call: () => call(b.jwt, 'GET', '/audit-log') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/audit-log') },
    },
    'GET /api/v1/tasks/:id/ws': {
      foreign: async (t) => Promise.all(task().map((id) => probe(`ws ${id}`, t, 'WS', `/tasks/${id}/ws`))),
      own: { status: 101, call: ownTaskSocket },
    },
    'GET /api/v1/tasks': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/tasks') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/tasks') },
    },
    'POST /api/v1/tasks': {
      foreign: async (t) => {
        const bodies: [string, Json][] = [
          ["A's test", { testId: a.test.id }],
          ["A's config", { testId: b.test.id, configId: a.config.id }],
          ["A's machine", { testId: b.test.id, machineIds: [a.machine.id] }],
          ["B's and A's machines", { testId: b.test.id, machineIds: [b.machine.id, a.machine.id] }],
        ];
        const probes: Probe[] = [];
        for (const [label, json] of bodies) probes.push(await probe(label, t, 'POST', '/tasks', { json }));
        return probes;
      },
      own: { status: 202, call: () => call(a.jwt, 'POST', '/tasks', { json: { testId: a.test.id, configId: a.config.id } }) },
    },
    'GET /api/v1/tasks/:id': {
      foreign: async (t) => Promise.all(task().map((id) => probe(id, t, 'GET', `/tasks/${id}`))),
      own: { status: 200, call: () => call(a.jwt, 'GET', `/tasks/${a.task.public_id}`) },
    },
    'GET /api/v1/tasks/:id/log-stream': {
      foreign: async (t) => Promise.all(task().map((id) => probe(id, t, 'GET', `/tasks/${id}/log-stream`))),
      own: { status: 200, call: ownSse },
    },
    'DELETE /api/v1/tasks/:id': {
      foreign: async (t) => Promise.all(task().map((id) => probe(id, t, 'DELETE', `/tasks/${id}`))),
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/tasks/${a.task.id}`) },
    },
    'GET /api/v1/schedules': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/schedules') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/schedules') },
    },
    'POST /api/v1/schedules': {
      // A's test, config or machine named in B's schedule: the plain 404, as for ids that exist nowhere.
      foreign: async (t) => [
        await probe('test', t, 'POST', '/schedules', { json: { test_id: a.test.id, cron: '* * * * *' } }),
        await probe('config', t, 'POST', '/schedules', { json: { test_id: b.test.id, cron: '* * * * *', config_id: a.config.id } }),
        await probe('machine', t, 'POST', '/schedules', { json: { test_id: b.test.id, cron: '* * * * *', machine_ids: [a.machine.id] } }),
      ],
      clean: { status: 201, call: (t) => call(t, 'POST', '/schedules', { json: { test_id: b.test.id, cron: '0 0 1 1 *', enabled: false } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/schedules', { json: { test_id: a.test.id, cron: '0 0 1 1 *', enabled: false } }) },
    },
    'GET /api/v1/schedules/:id': {
      foreign: async (t) => [await probe('schedule', t, 'GET', `/schedules/${a.schedule.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/schedules/${a.schedule.id}`) },
    },
    'PATCH /api/v1/schedules/:id': {
      foreign: async (t) => [
        await probe('schedule', t, 'PATCH', `/schedules/${a.schedule.id}`, { json: { cron: '* * * * *' } }),
        await probe('schedule onto B', t, 'PATCH', `/schedules/${a.schedule.id}`, { json: { test_id: b.test.id } }),
      ],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/schedules/${a.schedule.id}`, { json: { timezone: 'UTC' } }) },
    },
    'DELETE /api/v1/schedules/:id': {
      foreign: async (t) => [await probe('schedule', t, 'DELETE', `/schedules/${a.spareSchedule.id}`)],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/schedules/${a.spareSchedule.id}`) },
    },
    'GET /api/v1/configs': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/configs') },
      own: { status: 200, call: () => call(a.jwt, 'GET', '/configs') },
    },
    'POST /api/v1/configs': {
      clean: { status: 201, call: (t) => call(t, 'POST', '/configs', { json: { name: 'b-config', vus: 1, duration: '1s' } }) },
      own: { status: 201, call: () => call(a.jwt, 'POST', '/configs', { json: { name: 'walk-a-config-2', vus: 1, duration: '1s' } }) },
    },
    'GET /api/v1/configs/:id': {
      foreign: async (t) => [await probe('config', t, 'GET', `/configs/${a.config.id}`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/configs/${a.config.id}`) },
    },
    'PATCH /api/v1/configs/:id': {
      foreign: async (t) => [await probe('config', t, 'PATCH', `/configs/${a.config.id}`, { json: { vus: 999, duration: '1h' } })],
      own: { status: 200, call: () => call(a.jwt, 'PATCH', `/configs/${a.config.id}`, { json: { name: 'walk-a-config renamed' } }) },
    },
    'DELETE /api/v1/configs/:id': {
      foreign: async (t) => [
        await probe('config', t, 'DELETE', `/configs/${a.spareConfig.id}`),
        await probe('config in use', t, 'DELETE', `/configs/${a.config.id}`),
      ],
      own: { status: 204, call: () => call(a.jwt, 'DELETE', `/configs/${a.spareConfig.id}`) },
    },
    'GET /api/v1/metrics/catalog': {
      clean: { status: 200, call: (t) => call(t, 'GET', '/metrics/catalog') },
      own: { status: 200, call: ownMetric('/metrics/catalog', String(a.task.id)) },
    },
    'GET /api/v1/metrics/query': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/metrics/query?metric=latency_p95&start=-1h&by=run,machine,test&run=${a.task.id}`) },
      own: { status: 200, call: ownMetric(`/metrics/query?metric=latency_p95&start=-1h&run=${a.task.id}`, String(a.task.id)) },
    },
    'GET /api/v1/prometheus/api/v1/query': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/prometheus/api/v1/query?query=${encodeURIComponent(`sum by (run, machine, test) (rate(loadplane_requests_total{run="${a.task.id}"}[1h]))`)}`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/query?query=${encodeURIComponent(`sum by (run, machine, test) (rate(loadplane_requests_total{run="${a.task.id}"}[1h]))`)}`, String(a.task.id), 'GET') },
    },
    'POST /api/v1/prometheus/api/v1/query': {
      clean: { status: 200, call: (t) => call(t, 'POST', `/prometheus/api/v1/query?query=${encodeURIComponent(`sum by (run, machine, test) (rate(loadplane_requests_total{run="${a.task.id}"}[1h]))`)}`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/query?query=${encodeURIComponent(`sum by (run, machine, test) (rate(loadplane_requests_total{run="${a.task.id}"}[1h]))`)}`, String(a.task.id), 'POST') },
    },
    'GET /api/v1/prometheus/api/v1/query_range': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/prometheus/api/v1/query_range?query=${encodeURIComponent('sum by (run, machine, test) (rate(loadplane_requests_total[5m]))')}&start=${Math.floor(Date.now() / 1000) - 600}&end=${Math.floor(Date.now() / 1000)}&step=60`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/query_range?query=${encodeURIComponent('sum by (run, machine, test) (rate(loadplane_requests_total[5m]))')}&start=${Math.floor(Date.now() / 1000) - 600}&end=${Math.floor(Date.now() / 1000)}&step=60`, String(a.task.id), 'GET') },
    },
    'POST /api/v1/prometheus/api/v1/query_range': {
      clean: { status: 200, call: (t) => call(t, 'POST', `/prometheus/api/v1/query_range?query=${encodeURIComponent('sum by (run, machine, test) (rate(loadplane_requests_total[5m]))')}&start=${Math.floor(Date.now() / 1000) - 600}&end=${Math.floor(Date.now() / 1000)}&step=60`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/query_range?query=${encodeURIComponent('sum by (run, machine, test) (rate(loadplane_requests_total[5m]))')}&start=${Math.floor(Date.now() / 1000) - 600}&end=${Math.floor(Date.now() / 1000)}&step=60`, String(a.task.id), 'POST') },
    },
    'GET /api/v1/prometheus/api/v1/labels': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/prometheus/api/v1/labels`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/labels`, '__name__', 'GET') },
    },
    'POST /api/v1/prometheus/api/v1/labels': {
      clean: { status: 200, call: (t) => call(t, 'POST', `/prometheus/api/v1/labels`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/labels`, '__name__', 'POST') },
    },
    'GET /api/v1/prometheus/api/v1/label/:name/values': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/prometheus/api/v1/label/run/values`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/label/run/values`, String(a.task.id), 'GET') },
    },
    'POST /api/v1/prometheus/api/v1/label/:name/values': {
      clean: { status: 200, call: (t) => call(t, 'POST', `/prometheus/api/v1/label/run/values`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/label/run/values`, String(a.task.id), 'POST') },
    },
    'GET /api/v1/prometheus/api/v1/series': {
      clean: { status: 200, call: (t) => call(t, 'GET', `/prometheus/api/v1/series?match[]=${encodeURIComponent(`{run="${a.task.id}"}`)}`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/series?match[]=${encodeURIComponent(`{run="${a.task.id}"}`)}`, String(a.task.id), 'GET') },
    },
    'POST /api/v1/prometheus/api/v1/series': {
      clean: { status: 200, call: (t) => call(t, 'POST', `/prometheus/api/v1/series?match[]=${encodeURIComponent(`{run="${a.task.id}"}`)}`) },
      own: { status: 200, call: ownMetric(`/prometheus/api/v1/series?match[]=${encodeURIComponent(`{run="${a.task.id}"}`)}`, String(a.task.id), 'POST') },
    },
    'POST /api/v1/otlp/v1/metrics': {
      custom: otlpPointsForForeignRun,
      clean: { status: 200, call: (t) => call(t, 'POST', '/otlp/v1/metrics', { json: {} }) },
      own: {
        status: 200,
        call: async () => {
          const response = await call(a.jwt, 'POST', '/otlp/v1/metrics', { json: otlpExport([{ taskRef: String(a.task.public_id), ms: Date.now() }]) });
          return response.status === 200 && (await response.clone().text()) === '{}' ? response : 500;
        },
      },
    },
    'GET /api/v1/tasks/:id/otel': {
      foreign: async (t) => [await probe('task', t, 'GET', `/tasks/${a.task.id}/otel`), await probe('task by public id', t, 'GET', `/tasks/${a.task.public_id}/otel?metric=walk.gauge`)],
      own: { status: 200, call: () => call(a.jwt, 'GET', `/tasks/${a.task.id}/otel`) },
    },
    'GET /api/v1/tasks/:id/timeseries': {
      foreign: async (t) => [await probe('task', t, 'GET', `/tasks/${a.task.id}/timeseries`), await probe('task by public id, with a step', t, 'GET', `/tasks/${a.task.public_id}/timeseries?step=5`)],
      // A's seeded points: 2 requests and 1 error a second, so its own series shows their error rate.
      own: { status: 200, call: ownMetric(`/tasks/${a.task.public_id}/timeseries`, '"error_rate":0.5') },
    },
    'GET /api/v1/tasks/:id/endpoints': {
      foreign: async (t) => [await probe('task', t, 'GET', `/tasks/${a.task.id}/endpoints`), await probe('task by public id', t, 'GET', `/tasks/${a.task.public_id}/endpoints`)],
      own: { status: 200, call: ownMetric(`/tasks/${a.task.public_id}/endpoints`, '"name":"walk-a endpoint"') },
    },
    'GET /api/v1/tasks/:id/errors': {
      foreign: async (t) => [await probe('task', t, 'GET', `/tasks/${a.task.id}/errors`), await probe('task by public id', t, 'GET', `/tasks/${a.task.public_id}/errors`)],
      own: { status: 200, call: ownMetric(`/tasks/${a.task.public_id}/errors`, '"message":"walk-a error"') },
    },
    'GET /api/v1/tasks/:id/compare': {
      foreign: async (t) => [
        await probe('task, with its baseline', t, 'GET', `/tasks/${a.task.id}/compare?with=baseline`),
        await probe('task by public id, with itself', t, 'GET', `/tasks/${a.task.public_id}/compare?with=${a.task.id}`),
      ],
      own: { status: 200, call: async () => ownMetric(`/tasks/${a.task.public_id}/compare?with=${await finishedRunOfA()}`, '"name":"walk-a endpoint"')() },
    },
    'GET /api/v1/agent': {
      custom: agentReportsOnForeignAssignment,
      own: { status: 101, call: ownAgentSocket },
    },
  };
}

/** Every /api/v1 route the app serves, as its policy key (WebSocket routes count as GET). */
const appRoutes = () => ts.service.app.routes.filter((route) => route.path.startsWith('/api/v1')).map((route) => policyKey(route.method, route.path));

/** The path of a route key with real ids of A for the X-Workspace-Id check (any id; the workspace header fails first). */
const concrete = (key: string) => {
  const [method, path] = key.split(' ') as [string, string];
  return { method, path: path.replace('/api/v1', '').replace(/:\w+/g, String(a.test.id)) };
};

/** Snapshot of what A holds, to compare before and after B's attempts. */
async function snapshotOfA() {
  const read = async (path: string) => (await call(a.jwt, 'GET', path)).json();
  const [machines, tests, configs, tokens, members, invitations, workspace, controls, task, envVars, dashboards, gitRepos, otel] = await Promise.all(
    ['/machines', '/tests', '/configs', '/api-tokens', '/members', '/members/invitations', '/workspace', '/access-controls', `/tasks/${a.task.id}`, '/env-vars', '/dashboards', '/git-repos', `/tasks/${a.task.id}/otel`].map(read),
  );
  const stable = (rows: unknown) => (rows as Json[]).map(({ last_used_at: _, last_seen_at: __, status: ___, ...rest }) => rest);
  // A repository's sync runs in the background: its outcome may land during the walk; what B could change may not.
  const repos = (gitRepos as Json[]).map(({ id, url, branch, path, has_credentials, updated_at }) => ({ id, url, branch, path, has_credentials, updated_at }));
  // The value A's variable holds, as the agent would get it: B's PUT of the same name must not have touched it.
  const envValues = await ts.service.runs.workspaceEnv(a.workspaceId);
  // Of A's usage, the AI tool calls (its stored bytes grow with A's own run during the walk).
  const aiToolCalls = ((await read('/usage')) as Json).ai_tool_calls;
  const mcpServers = await read('/mcp-servers');
  return { machines: stable(machines), tests, configs, tokens: stable(tokens), members, invitations, workspace, controls, task: (task as Json).status, envVars, dashboards, repos, envValues, otel, aiToolCalls, mcpServers };
}

describe('isolation walk: workspace B with workspace A real ids', () => {
  test('every /api/v1 route has a case, and every case is a route', () => {
    const routes = appRoutes();
    const table = Object.keys(cases());
    expect(routes.filter((key) => !table.includes(key)), 'routes without an isolation case: add one').toEqual([]);
    expect(table.filter((key) => !routes.includes(key)), 'cases for routes that no longer exist').toEqual([]);
  });

  test("B's calls with A's ids answer the plain 404; B's lists show nothing of A; A's data is untouched", async () => {
    const before = await snapshotOfA();
    for (const [key, routeCase] of Object.entries(cases())) {
      for (const bearer of [b.jwt, b.token]) {
        for (const probe of (await routeCase.foreign?.(bearer)) ?? []) {
          const text = await probe.response.text();
          expect(probe.response.status, `${key} (${probe.label}): ${text}`).toBe(404);
          const body = JSON.parse(text) as Json;
          expect(Object.keys(body).sort(), `${key} (${probe.label})`).toEqual(['error', 'message']);
          expect(body.error).toBe('not_found');
          expect({ status: probe.twin.status, text: probe.twin.text }, `${key} (${probe.label}): real and made-up ids answer alike`).toEqual({ status: 404, text });
          for (const marker of a.markers.filter((m) => !probe.sent.includes(m))) {
            expect(text, `${key} (${probe.label}) leaks ${marker}`).not.toContain(marker);
          }
        }
        if (routeCase.clean) {
          const response = await routeCase.clean.call(bearer);
          const text = await response.text();
          expect(response.status, `${key}: ${text}`).toBe(routeCase.clean.status);
          for (const marker of a.markers) expect(text, `${key} shows B ${marker}`).not.toContain(marker);
        }
      }
      await routeCase.custom?.();
    }
    expect(await snapshotOfA()).toEqual(before);
    // B's run attempts with A's ids created nothing.
    expect(await (await call(b.jwt, 'GET', '/tasks')).json()).toEqual([]);
  }, 60_000);

  test("A's paging cursor shows B only B's rows", async () => {
    await call(a.jwt, 'POST', '/tests', { json: { name: 'walk-a-paged', tool: 'k6', script: 'export default function () {}' } });
    const page = await call(a.jwt, 'GET', '/tests?limit=1');
    const cursor = page.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const response = await call(b.jwt, 'GET', `/tests?cursor=${cursor}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const marker of a.markers) expect(text).not.toContain(marker);
  });

  test("X-Workspace-Id naming A's workspace is a 404 for B on every route, the WebSockets included", async () => {
    const headers = { 'x-workspace-id': a.workspaceId };
    for (const key of appRoutes()) {
      const { method, path } = concrete(key);
      for (const bearer of [b.jwt, b.token]) {
        const isSocket = key === 'GET /api/v1/agent' || key.endsWith('/ws');
        const response = isSocket
          ? await fetch(wsUrl(path).replace(/^ws/, 'http'), { headers: { ...headers, authorization: `Bearer ${bearer}`, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': btoa('loadplane-walk-k') } })
          : await call(bearer, method, path, { headers, json: ['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined });
        expect(response.status, `${key} with B's ${bearer === b.jwt ? 'JWT' : 'token'}`).toBe(404);
        expect(((await response.json()) as Json).error).toBe('not_found');
      }
    }
  });

  test("A's own calls on its own ids get their expected 2xx", async () => {
    for (const [key, routeCase] of Object.entries(cases())) {
      const result = await routeCase.own.call();
      const status = typeof result === 'number' ? result : result.status;
      const detail = typeof result === 'number' ? '' : await result.text();
      expect(status, `${key} by A: ${detail}`).toBe(routeCase.own.status);
    }
  }, 60_000);
});
