/**
 * Environment variables reach a run: a real `custom` run through the in-process agent (sandboxed like any tool) gets
 * the workspace's variables as its process environment, and a value it prints shows as *** in the live SSE stream and
 * in the stored log. A bare protocol agent that sends the secret unmasked proves the server masks on its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sqlOf } from '../../core/services/sql.ts';
import { createProtocolAgent } from '../helpers/protocol-agent.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { readSse } from '../helpers/stream-clients.ts';
import type { TestService } from '../helpers/test-service.ts';

let fixture: ServiceWithAgent;
let ts: TestService;
let token: string;

const secret = 's3cr3t-Value-42';
const multiLine = 'first-line-secret\nsecond-line-secret';

async function put(key: string, value: string, bearer = token) {
  return ts.request(`/api/v1/env-vars/${key}`, { method: 'PUT', token: bearer, json: { value } });
}

async function startRun(script: string, bearer = token) {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token: bearer, json: { name: 'env', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const response = await ts.request('/api/v1/tasks', { method: 'POST', token: bearer, json: { testId } });
  expect(response.status).toBe(202);
  return (await response.json()) as { id: string };
}

const storedLines = async (taskId: string) =>
  (await sqlOf(ts.service.database).all<{ text: string }>('select text from task_logs where task_id = ? order by seq', [taskId])).map((row) => row.text);

beforeAll(async () => {
  fixture = await startServiceWithAgent('env-runner');
  ({ ts, token } = fixture);
  expect((await put('API_SECRET', secret)).status).toBe(201);
  expect((await put('MULTI', multiLine)).status).toBe(201);
  expect((await put('SHORT', 'abc')).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
});

describe('a custom run through the local agent', () => {
  test('gets the variables as its environment; printed values are *** in the SSE stream and the stored log', async () => {
    const script = [
      '#!/bin/sh',
      // Time for the stream below to connect while the run goes (a finished run's stream is its final record only).
      'sleep 1',
      // The comparison proves the value arrived without printing it.
      `if [ "$API_SECRET" = '${secret}' ]; then echo env-ok; else echo "env-missing"; fi`,
      'echo "token is $API_SECRET."',
      'echo "$MULTI"',
      'echo "short=$SHORT"',
      // The agent's own variables win: HOME is the sandbox's work directory, PATH the agent's.
      'echo "home-set=${HOME:+yes} path-set=${PATH:+yes}"',
      'echo "$API_SECRET" >&2',
    ].join('\n');
    const run = await startRun(script);
    const { events, ended } = await readSse(
      await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`, { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(ended).toBe(true);
    const streamed = events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
    expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
    const expected = ['env-ok', 'token is ***.', '***', '***', 'short=abc', 'home-set=yes path-set=yes', '***'];
    expect([...streamed].sort()).toEqual([...expected].sort());
    const stored = await storedLines(run.id);
    expect([...stored].sort()).toEqual([...expected].sort());
    for (const text of [...streamed, ...stored]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('first-line-secret');
      expect(text).not.toContain('second-line-secret');
    }
  }, 60_000);

  test('a variable changed between runs: the next run gets the new value, masked', async () => {
    expect((await put('API_SECRET', 'rotated-value-7')).status).toBe(200);
    const run = await startRun('#!/bin/sh\nsleep 1\necho "now $API_SECRET"\n');
    const { events } = await readSse(await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`, { headers: { authorization: `Bearer ${token}` } }));
    expect(events.filter((e) => e.data.type === 'log').map((e) => e.data.text)).toEqual(['now ***']);
    expect(await storedLines(run.id)).toEqual(['now ***']);
    expect((await put('API_SECRET', secret)).status).toBe(200);
  }, 60_000);
});

describe('the server masks on its own', () => {
  test('an agent that sends a secret unmasked: the stream and the stored log show ***; the assignment carried the env', async () => {
    const agentToken = await ts.request('/api/v1/api-tokens', {
      method: 'POST',
      token: fixture.jwt,
      json: { name: 'raw agent', scopes: ['machines:write', 'runs:write'] },
    });
    // The in-process agent must not take the run: stop it first.
    await fixture.agent.shutdown();
    const agent = createProtocolAgent({ origin: ts.url, token: ((await agentToken.json()) as { token: string }).token, hostname: 'raw-env-agent', tools: ['custom'] });
    await agent.connect();
    try {
      const run = await startRun('#!/bin/sh\necho unused\n');
      for (let i = 0; i < 200 && agent.received.assigns.length === 0; i++) await Bun.sleep(25);
      const assignment = agent.received.assigns[0]!;
      expect(assignment.env).toEqual({ API_SECRET: secret, MULTI: multiLine, SHORT: 'abc' });
      agent.start(assignment.assignmentId);
      // Subscribed while the run goes (a finished run's stream is its final record only).
      const stream = await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`, { headers: { authorization: `Bearer ${token}` } });
      const read = readSse(stream);
      agent.log(assignment.assignmentId, [`leaked ${secret} here`, 'second-line-secret', `${secret}${secret}`, 'plain line']);
      agent.report(assignment.assignmentId, 'completed');
      const { events } = await read;
      const expected = ['leaked *** here', '***', '******', 'plain line'];
      expect(events.filter((e) => e.data.type === 'log').map((e) => e.data.text)).toEqual(expected);
      expect(await storedLines(run.id)).toEqual(expected);
    } finally {
      await agent.stop();
    }
  }, 60_000);
});
