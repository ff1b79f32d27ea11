/**
 * Environment variables reach a run: a real `custom` run through the in-process agent (sandboxed like any tool) gets
 * the workspace's variables as its process environment, and a value it prints shows as *** in the live SSE stream and
 * in the stored log, also printed with escapes, `\r` or invalid bytes in or around it. A variable stored before its
 * name was reserved is left out of the tool's environment, the run's log says so, and the run completes. A bare
 * protocol agent that sends the secret unmasked proves the server masks on its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sqlOf } from '../../core/services/sql.ts';
import { waitForEnd } from '../helpers/engine-runs.ts';
import { createProtocolAgent } from '../helpers/protocol-agent.ts';
import { scriptLines } from '../helpers/script-log.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { readSse } from '../helpers/stream-clients.ts';
import type { TestService } from '../helpers/test-service.ts';
import { waitFor } from '../helpers/process-probes.ts';

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
    // The script's lines; the agent's progress lines (its `sleep 1` can be quiet for 2 s on a busy machine) apart.
    expect(scriptLines(streamed).sort()).toEqual([...expected].sort());
    const stored = await storedLines(run.id);
    expect(scriptLines(stored).sort()).toEqual([...expected].sort());
    // Every line, the agent's own too.
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
    expect(scriptLines(events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text)))).toEqual(['now ***']);
    expect(scriptLines(await storedLines(run.id))).toEqual(['now ***']);
    expect((await put('API_SECRET', secret)).status).toBe(200);
  }, 60_000);
});

/** The stored lines with escape sequences and controls taken out: what a terminal would show of them. */
const hidden = new RegExp(String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\]8;;[^\x1b]*\x1b\\|[\x00-\x1f\ufffd]`, 'g');
const shown = (lines: string[]) => lines.map((line) => line.replace(hidden, ''));

describe('masking survives what tools print around a value', () => {
  test('colour and cursor escapes, \\r and invalid bytes in or around a value: the stored log never holds it', async () => {
    const script = [
      '#!/bin/sh',
      // Two halves of the value, to print things between them.
      'a="${API_SECRET%%-*}"; b="-${API_SECRET#*-}"',
      `printf '\\033[31m%s\\033[0m\\n' "$API_SECRET"`,
      `printf '%s\\033[1m%s\\033[0m\\n' "$a" "$b"`,
      `printf 'progress 50%%\\r%s\\r%s\\n' "$a" "$b"`,
      `printf '%s\\377%s\\n' "$a" "$b"`,
      `printf '\\303%s\\342\\n' "$API_SECRET"`,
      `printf '\\033]8;;https://example.test/\\033\\\\%s\\033]8;;\\033\\\\\\n' "$API_SECRET"`,
      'echo plain-end',
    ].join('\n');
    const run = await startRun(script);
    expect((await waitForEnd(ts, token, run.id)).status).toBe('completed');
    const stored = await storedLines(run.id);
    // A slow sandbox start can put an agent's progress line among them: the script's own seven lines, in order.
    const printed = scriptLines(stored);
    expect(printed).toHaveLength(7);
    expect(printed.at(-1)).toBe('plain-end');
    for (const text of printed.slice(0, -1)) expect(text).toContain('***');
    for (const text of [...stored, ...shown(stored)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('s3cr3t');
      expect(text).not.toContain('Value-42');
    }
  }, 60_000);

  test('a variable stored before its name was reserved: left out, the log says so first, the run completes; it can be deleted', async () => {
    expect((await put('SOON_RESERVED', 'old-python-home')).status).toBe(201);
    // As if stored before the rule: renamed in the database, bypassing the PUT.
    await sqlOf(ts.service.database).all("update env_vars set key = 'PYTHONHOME' where key = 'SOON_RESERVED'");
    try {
      const run = await startRun('#!/bin/sh\necho "home=${PYTHONHOME:-unset}"\necho "script knows old-python-home"\n');
      expect((await waitForEnd(ts, token, run.id)).status).toBe('completed');
      expect(scriptLines(await storedLines(run.id))).toEqual([
        '[loadplane] PYTHONHOME is not passed to the tool: PYTHON* is read by Python (Locust runs on it)',
        'home=unset',
        'script knows ***',
      ]);
      const listed = (await (await ts.request('/api/v1/env-vars', { token })).json()) as { key: string }[];
      expect(listed.map((row) => row.key)).toContain('PYTHONHOME');
    } finally {
      expect((await ts.request('/api/v1/env-vars/PYTHONHOME', { method: 'DELETE', token })).status).toBe(204);
    }
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
      await waitFor(() => agent.received.assigns.length > 0, 30_000, 'the assignment at the raw agent');
      const assignment = agent.received.assigns[0]!;
      expect(assignment.env).toEqual({ API_SECRET: secret, MULTI: multiLine, SHORT: 'abc' });
      agent.start(assignment.assignmentId);
      // Subscribed while the run goes (a finished run's stream is its final record only).
      const stream = await fetch(`${ts.url}/api/v1/tasks/${run.id}/log-stream`, { headers: { authorization: `Bearer ${token}` } });
      const read = readSse(stream);
      // Also what the sanitiser changes before storing (NUL, a lone surrogate) and escapes, inside the value.
      const [head, tail] = [secret.slice(0, 6), secret.slice(6)];
      agent.log(assignment.assignmentId, [
        `leaked ${secret} here`,
        'second-line-secret',
        `${secret}${secret}`,
        'plain line',
        `${head}\u0000${tail}`,
        `${head}\ud800${tail}`,
        `\x1b[31m${head}\x1b[1m${tail}\x1b[0m`,
      ]);
      agent.report(assignment.assignmentId, 'completed');
      const { events } = await read;
      const expected = ['leaked *** here', '***', '******', 'plain line', '***', '***', '\x1b[31m***\x1b[0m'];
      expect(events.filter((e) => e.data.type === 'log').map((e) => e.data.text)).toEqual(expected);
      expect(await storedLines(run.id)).toEqual(expected);
    } finally {
      await agent.stop();
    }
  }, 60_000);
});
