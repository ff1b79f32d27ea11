/**
 * The WebSocket keep-alive over real sockets, with the ping interval shortened to 100 ms and the stale limit to 1 s:
 * on the task stream (`/tasks/:id/ws`) and the agent socket (`/agent`) alike, the server pings; a client that answers
 * with pongs stays connected across many intervals, one that never answers (or stops answering) is closed with 1001
 * `no pong` once its last pong is older than the limit, and a cut agent's machine goes offline. The in-process agent
 * (Bun's WebSocket client, which answers pings by itself) stays online throughout.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openRawWebSocket } from '../helpers/raw-websocket.ts';
import { agentToken, type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

// A stale limit of ten intervals leaves a loaded machine ample time between the upgrade and an agent's welcome.
const keepAlive = { pingMillis: 100, staleMillis: 1000 };
/** More pings than the stale limit spans: an answering client has outlived it more than twice over. */
const manyPings = 25;

let fixture: ServiceWithAgent;

beforeAll(async () => {
  fixture = await startServiceWithAgent('keep-alive', { boot: { wsKeepAlive: keepAlive } });
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
});

const wsUrl = (path: string) => `${fixture.ts.url.replace(/^http/, 'ws')}/api/v1${path}`;

async function machineStatus(hostname: string): Promise<string | undefined> {
  const machines = (await (await fixture.ts.request('/api/v1/machines', { token: fixture.token })).json()) as { hostname: string; status: string }[];
  return machines.find((m) => m.hostname === hostname)?.status;
}

async function waitForStatus(read: () => Promise<string | undefined>, want: string, what: string) {
  let seen: string | undefined;
  for (let i = 0; i < 400; i++) {
    seen = await read();
    if (seen === want) return;
    await Bun.sleep(25);
  }
  throw new Error(`${what}: still ${seen}, never ${want}`);
}

test('task stream: an answering client stays across many pings; a silent one, or one that stops answering, is cut with 1001', async () => {
  const { ts, token } = fixture;
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'long run', tool: 'custom', script: '#!/bin/sh\necho started\nsleep 60\n' } });
  const { id: testId } = (await created.json()) as { id: string };
  const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId, transport: 'ws' } });
  expect(started.status).toBe(202);
  const { id: taskId } = (await started.json()) as { id: string };
  const taskStatus = async () => ((await (await ts.request(`/api/v1/tasks/${taskId}`, { token })).json()) as { status: string }).status;
  await waitForStatus(taskStatus, 'running', 'the run');

  const headers = { authorization: `Bearer ${token}` };
  const answering = await openRawWebSocket(wsUrl(`/tasks/${taskId}/ws`), headers, { answerPings: true });
  // Taken before the silent connection exists, so the server's clock for it cannot have started earlier.
  const openedAt = Date.now();
  const silent = await openRawWebSocket(wsUrl(`/tasks/${taskId}/ws`), headers, { answerPings: false });

  await silent.until(() => silent.ended, 'the silent client cut');
  expect(silent.closed).toEqual({ code: 1001, reason: 'no pong' });
  // It was pinged and given the whole stale limit: not cut at the first unanswered ping.
  expect(silent.pings).toBeGreaterThanOrEqual(3);
  expect(Date.now() - openedAt).toBeGreaterThanOrEqual(keepAlive.staleMillis);

  await answering.until(() => answering.pings >= manyPings || answering.ended, 'the answering client pinged many times');
  expect(answering.closed).toBeNull();
  expect(answering.ended).toBe(false);
  expect(answering.pings).toBeGreaterThanOrEqual(manyPings);
  // A live stream all along: it got the run's output.
  expect(answering.messages.map((m) => JSON.parse(m) as { type: string; text?: string })).toContainEqual(expect.objectContaining({ type: 'log', text: 'started' }));

  // The pongs are what kept it: once it stops answering, it is cut like the silent one, while the run goes on.
  answering.answerPings = false;
  await answering.until(() => answering.ended, 'the client that stopped answering cut');
  expect(answering.closed).toEqual({ code: 1001, reason: 'no pong' });
  expect(await taskStatus()).toBe('running');

  expect((await ts.request(`/api/v1/tasks/${taskId}`, { method: 'DELETE', token })).status).toBe(204);
  await waitForStatus(taskStatus, 'cancelled', 'the cancelled run');
}, 60_000);

test('agent socket: an agent that answers pings stays online without heartbeats; one that does not is cut and goes offline', async () => {
  const { ts, jwt } = fixture;
  const hello = (hostname: string) =>
    JSON.stringify({
      type: 'hello',
      protocol: 1,
      hostname,
      ip_address: '127.0.0.1',
      os: 'linux',
      arch: 'x86_64',
      cpu_cores: 2,
      memory_gb: 4,
      agent_version: 'keep-alive-test',
      tools: ['custom'],
      running: [],
    });
  const welcomed = (messages: string[]) => messages.some((m) => (JSON.parse(m) as { type: string }).type === 'welcome');
  const headers = { authorization: `Bearer ${await agentToken(ts, jwt, 'raw agents')}` };

  const answering = await openRawWebSocket(wsUrl('/agent'), headers, { answerPings: true });
  answering.sendText(hello('answering-agent'));
  // Taken before the connection exists, so the server's clock for this socket cannot have started earlier.
  const openedAt = Date.now();
  const silent = await openRawWebSocket(wsUrl('/agent'), headers, { answerPings: false });
  silent.sendText(hello('silent-agent'));
  await silent.until(() => welcomed(silent.messages) || silent.ended, 'the silent agent welcomed');
  await answering.until(() => welcomed(answering.messages), 'the answering agent welcomed');
  expect(welcomed(silent.messages)).toBe(true);

  await silent.until(() => silent.ended, 'the silent agent cut');
  expect(silent.closed).toEqual({ code: 1001, reason: 'no pong' });
  expect(silent.pings).toBeGreaterThanOrEqual(3);
  expect(Date.now() - openedAt).toBeGreaterThanOrEqual(keepAlive.staleMillis);
  await waitForStatus(() => machineStatus('silent-agent'), 'offline', 'the silent agent’s machine');

  // No heartbeat is ever sent on this socket: pongs alone keep it.
  await answering.until(() => answering.pings >= manyPings || answering.ended, 'the answering agent pinged many times');
  expect(answering.closed).toBeNull();
  expect(answering.ended).toBe(false);
  expect(await machineStatus('answering-agent')).toBe('online');

  answering.answerPings = false;
  await answering.until(() => answering.ended, 'the agent that stopped answering cut');
  expect(answering.closed).toEqual({ code: 1001, reason: 'no pong' });
  await waitForStatus(() => machineStatus('answering-agent'), 'offline', 'the answering agent’s machine');

  // The real agent (Bun's client answers pings itself) was pinged all along and is still online.
  expect(await machineStatus('keep-alive-agent')).toBe('online');
}, 60_000);
