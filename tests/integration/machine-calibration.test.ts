/**
 * benchmark_capacity: a registered agent calibrates with the http tool against a loopback target of its own and the
 * figure shows on GET /machines/{id}; POST /machines/{id}/calibrate measures again (202), is 409 for an offline
 * machine, 404 across workspaces, 403 for a viewer; a run arriving mid-calibration runs normally and cancels it (no
 * figure), which is due again once the agent is idle; on two replicas the request reaches the agent held by the other.
 * Also the node agent's loopback target and the calibration's script as the http tool reads it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startNodeAgent } from '../../adapters/agent/start-node-agent.ts';
import { startLoopbackTarget } from '../../adapters/agent/loopback-target.ts';
import { calibrationAssignment } from '../../core/agent/calibration.ts';
import { createHttpTool } from '../../plugins/load-tool-http/http-tool.ts';
import { httpPlan } from '../../plugins/load-tool-http/http-plan.ts';
import { loadToolPluginsOf } from '../../adapters/composition/plugins.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { startAgentProcess } from '../helpers/agent-process.ts';
import { startDelayTarget, startTask, waitForEnd } from '../helpers/engine-runs.ts';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { postgresOrSkip, type PostgresServer } from '../helpers/postgres-server.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { freePort } from '../helpers/service-process.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

interface MachineView {
  id: string;
  hostname: string;
  status: string;
  benchmark_capacity: number | null;
}

/** A logger that keeps the agent's messages, so a test can tell whether a calibration reported. */
function recordingLogger(lines: string[]): Logger {
  const keep = (message: string) => void lines.push(message);
  const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep, child: () => logger };
  return logger;
}

/** A loopback target for calibrations that counts its starts and requests, and says when each calibration stopped it. */
function countingTarget() {
  const state = { starts: 0, stops: 0, requests: 0 };
  return {
    state,
    async start() {
      state.starts++;
      const server = Bun.serve({
        hostname: '127.0.0.1',
        port: 0,
        fetch: () => {
          state.requests++;
          return new Response('ok');
        },
      });
      return {
        url: `http://127.0.0.1:${server.port}`,
        async stop() {
          await server.stop(true);
          state.stops++;
        },
      };
    },
  };
}

async function startAgent(ts: TestService, jwt: string, hostname: string, calibration: Parameters<typeof startNodeAgent>[0]['calibration'], logger = silentLogger) {
  const agent = await startNodeAgent({
    serverUrl: ts.url,
    token: await agentToken(ts, jwt, hostname),
    logger,
    plugins: loadToolPluginsOf(ts.service),
    system: { hostname },
    calibration,
  });
  await agent.ready;
  return agent;
}

const machine = async (ts: TestService, token: string, id: string) => (await (await ts.request(`/api/v1/machines/${id}`, { token })).json()) as MachineView;
const calibrate = (ts: TestService, token: string, id: string) => ts.request(`/api/v1/machines/${id}/calibrate`, { method: 'POST', token });
const forget = (ts: TestService, id: string) => sqlOf(ts.service.database).all('update machines set benchmark_capacity = null where id = ?', [id]);

describe('one replica', () => {
  let ts: TestService;
  const stops: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    ts = await startTestService({ port: await freePort() });
    await ts.listen();
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await ts?.stop();
  });

  test('at registration, then on demand: the figure shows on GET /machines/{id} and in the list', async () => {
    const owner = await ts.apiToken('calibrated-owner');
    const agent = await startAgent(ts, owner.jwt, 'calibrated', { vus: 2, durationMillis: 500 });
    stops.push(() => agent.shutdown());
    const id = await agent.ready;
    await waitFor(async () => ((await machine(ts, owner.token, id)).benchmark_capacity ?? 0) > 0, 60_000, 'the registration calibration');
    const listed = (await (await ts.request('/api/v1/machines', { token: owner.token })).json()) as MachineView[];
    expect(listed.find((m) => m.id === id)?.benchmark_capacity).toBeGreaterThan(0);

    await forget(ts, id);
    const asked = await calibrate(ts, owner.token, id);
    expect(asked.status).toBe(202);
    expect(await asked.json()).toMatchObject({ id, hostname: 'calibrated', benchmark_capacity: null });
    await waitFor(async () => ((await machine(ts, owner.token, id)).benchmark_capacity ?? 0) > 0, 60_000, 'the requested calibration');
  }, 120_000);

  test('409 offline, 404 for another workspace or a made-up id, 403 for a viewer', async () => {
    const owner = await ts.apiToken('calibrate-errors');
    const registered = await ts.request('/api/v1/machines', {
      method: 'POST',
      token: owner.token,
      json: { name: 'by hand', hostname: 'by-hand', ip_address: '10.0.0.9' },
    });
    const { id } = (await registered.json()) as { id: string };
    const offline = await calibrate(ts, owner.token, id);
    expect(offline.status).toBe(409);
    expect(await offline.json()).toMatchObject({ error: 'conflict', message: expect.stringContaining('offline') });

    const other = await ts.apiToken('calibrate-stranger');
    expect((await calibrate(ts, other.token, id)).status).toBe(404);
    expect((await calibrate(ts, owner.token, crypto.randomUUID())).status).toBe(404);
    expect((await calibrate(ts, owner.token, 'not-a-uuid')).status).toBe(404);
    // The action takes no input: anything but nothing or {} is a 400 with the error body (never a 500).
    for (const body of ['5', '"x"', '[]', '{"vus": 2}', 'null', '{']) {
      const refused = await ts.request(`/api/v1/machines/${id}/calibrate`, { method: 'POST', token: owner.token, headers: { 'content-type': 'application/json' }, body });
      expect(refused.status, body).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'bad_request', message: expect.any(String) });
    }
    expect((await ts.request(`/api/v1/machines/${id}/calibrate`, { method: 'POST', token: owner.token, json: {} })).status).toBe(409);

    const viewer = await ts.createUser('calibrate-viewer');
    await ts.request('/api/v1/auth/me', { token: viewer });
    const workspaceId = ((await (await ts.request('/api/v1/workspace', { token: owner.jwt })).json()) as { id: string }).id;
    expect((await inviteAndAccept(ts, owner.jwt, 'calibrate-viewer', 'viewer', viewer)).invited.status).toBe(201);
    // In the owner's workspace the viewer reads the machine but may not calibrate it: the role, not the workspace.
    const inOwners = { 'x-workspace-id': workspaceId };
    expect((await ts.request(`/api/v1/machines/${id}`, { token: viewer, headers: inOwners })).status).toBe(200);
    const refused = await ts.request(`/api/v1/machines/${id}/calibrate`, { method: 'POST', token: viewer, headers: inOwners });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  }, 60_000);

  test('a run arriving mid-calibration runs normally and cancels it: no figure, and it is due again once idle', async () => {
    const owner = await ts.apiToken('calibration-yields');
    const target = countingTarget();
    const lines: string[] = [];
    // Far longer than the test: only the run can end it.
    const agent = await startAgent(ts, owner.jwt, 'yields', { vus: 1, durationMillis: 600_000, target: () => target.start() }, recordingLogger(lines));
    stops.push(() => agent.shutdown());
    const id = await agent.ready;
    await waitFor(() => target.state.requests > 0, 60_000, 'the calibration to send requests');

    const served = startDelayTarget();
    stops.push(async () => served.stop());
    const started = await startTask(ts, owner.token, {
      tool: 'http',
      script: JSON.stringify({ steps: [{ method: 'GET', url: `${served.url}/` }] }),
      config: { vus: 1, duration: '1s' },
      machineIds: [id],
    });
    if (started instanceof Response) throw new Error(`run refused: ${started.status} ${await started.text()}`);
    // The calibration stopped (its target too) and the run ended normally, with the requests the target counted.
    await waitFor(() => target.state.stops === 1, 30_000, 'the calibration to stop');
    const task = await waitForEnd(ts, owner.token, started.id);
    expect(task.status).toBe('completed');
    expect(task.total_requests).toBe(served.served);
    expect(served.served).toBeGreaterThan(0);
    // Idle again, the calibration starts anew; the cancelled one reported nothing.
    await waitFor(() => target.state.starts === 2, 30_000, 'the calibration to be due again');
    expect(lines.filter((line) => line === 'calibrated')).toEqual([]);
    expect((await machine(ts, owner.token, id)).benchmark_capacity).toBeNull();
  }, 120_000);

  test('the agent program calibrates with AGENT_CALIBRATION=true (its defaults: 4 VUs, 3 s); a bad value is a usage error', async () => {
    const owner = await ts.apiToken('calibrating-program');
    const token = await agentToken(ts, owner.jwt, 'program');
    const agent = startAgentProcess({ serverUrl: ts.url, token, hostname: 'calibrating-program', env: { AGENT_CALIBRATION: 'true' } });
    stops.push(() => agent.kill());
    await agent.registered();
    const listed = (await (await ts.request('/api/v1/machines', { token: owner.token })).json()) as MachineView[];
    const id = listed.find((m) => m.hostname === 'calibrating-program')!.id;
    await waitFor(async () => ((await machine(ts, owner.token, id)).benchmark_capacity ?? 0) > 0, 60_000, () => `the program's calibration:\n${agent.output()}`);
    expect(agent.output()).toContain('calibrated');

    const refused = startAgentProcess({ serverUrl: ts.url, token, hostname: 'calibration-typo', env: { AGENT_CALIBRATION: 'maybe' } });
    expect(await refused.exited()).toBe(2);
    expect(refused.output()).toContain('AGENT_CALIBRATION must be true or false');
    // The flag is accepted (and wins over the variable).
    const off = startAgentProcess({ serverUrl: ts.url, token, hostname: 'calibration-off', extraArgs: ['--no-calibration'], env: { AGENT_CALIBRATION: 'true' } });
    stops.push(() => off.kill());
    await off.registered();
  }, 120_000);
});

describe('two replicas on one PostgreSQL database', () => {
  let postgres: PostgresServer | null = null;
  const replicas: TestService[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    postgres = await postgresOrSkip();
    if (!postgres) return;
    // The first applies the migrations; the second starts on the migrated database.
    replicas.push(await startTestService({ database: postgres.url, port: await freePort() }));
    replicas.push(await startTestService({ database: postgres.url, port: await freePort() }));
    await replicas[0]!.listen();
  }, 120_000);
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    for (const replica of replicas) await replica.stop();
    await postgres?.stop();
  });

  test("POST /calibrate on B reaches the agent whose socket A holds; the figure shows on both", async () => {
    if (!postgres) return;
    const [a, b] = replicas as [TestService, TestService];
    const owner = await a.apiToken('calibrate-replicas');
    const target = countingTarget();
    const agent = await startAgent(a, owner.jwt, 'on-a', { vus: 1, durationMillis: 300, target: () => target.start() });
    stops.push(() => agent.shutdown());
    const id = await agent.ready;
    await waitFor(async () => ((await machine(a, owner.token, id)).benchmark_capacity ?? 0) > 0, 60_000, 'the registration calibration');
    await forget(a, id);
    const asked = await calibrate(b, owner.token, id);
    expect(asked.status).toBe(202);
    await waitFor(() => target.state.starts === 2, 30_000, 'the agent on A to calibrate again');
    await waitFor(async () => ((await machine(b, owner.token, id)).benchmark_capacity ?? 0) > 0, 60_000, 'the figure on B');
    expect((await machine(a, owner.token, id)).benchmark_capacity).toBe((await machine(b, owner.token, id)).benchmark_capacity);
  }, 120_000);
});

// The adapter's own target answers as the port says: 200 `ok` on 127.0.0.1, and nothing once stopped.
test('the node agent loopback target', async () => {
  const target = await startLoopbackTarget();
  expect(target.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const answer = await fetch(`${target.url}/anything`);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toBe('ok');
  await target.stop();
  expect(fetch(target.url)).rejects.toThrow();
});

test("the calibration's assignment is a valid http test: one GET of the target, the VUs for the duration", () => {
  const assignment = calibrationAssignment('http://127.0.0.1:4567', 3, 2500);
  expect(createHttpTool().validateScript(assignment.script)).toBeNull();
  const plan = httpPlan(assignment);
  expect(plan.steps.map((step) => [step.method, step.url])).toEqual([['GET', 'http://127.0.0.1:4567/']]);
  expect(plan.load).toEqual({ kind: 'segments', segments: [{ durationMs: 2500, from: 3, to: 3 }] });
});
