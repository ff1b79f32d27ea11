/**
 * A user's first start, as the README shows it: `npm start` with nothing configured (embedded PGlite, embedded IdP,
 * the local agent on), the generated admin password from DATA_DIR, then the README's run: create a custom test,
 * POST /tasks and follow the log stream at once: every line from the first, then done.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptLines } from '../helpers/script-log.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

let service: ServiceProcess | null = null;
let dataDir = '';

afterAll(async () => {
  await service?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('npm start with defaults: the local agent is online and the README example streams every line', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-first-start-'));
  // Only where to keep data: LOCAL_AGENT, the database and the admin are the defaults a newcomer gets.
  service = await startServiceProcess({ env: { DATA_DIR: dataDir }, embedded: true });
  const password = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
  expect(service.output()).toContain(password);
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  const token = await passwordGrant(service.url, { username: 'admin', password, clientSecret });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = (path: string, body?: unknown) =>
    fetch(`${service!.url}/api/v1${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });

  const deadline = Date.now() + 20_000;
  let machines: { name: string; status: string }[] = [];
  while (Date.now() < deadline) {
    machines = (await (await api('/machines')).json()) as typeof machines;
    if (machines.some((m) => m.status === 'online')) break;
    await Bun.sleep(100);
  }
  expect(machines.map((m) => [m.name, m.status])).toEqual([['local agent', 'online']]);

  // The README's script, then a burst that is all printed before a slow reader could have subscribed.
  const burst = Array.from({ length: 50 }, (_, i) => `burst ${i + 1}`);
  const scripts: [string, string[]][] = [
    ['#!/bin/sh\nfor i in 1 2 3; do echo line $i; sleep 1; done', ['line 1', 'line 2', 'line 3']],
    ['#!/bin/sh\ni=1\nwhile [ $i -le 50 ]; do echo "burst $i"; i=$((i+1)); done', burst],
  ];
  for (const [script, lines] of scripts) {
    const created = await api('/tests', { name: 'hello', tool: 'custom', script });
    const { id: testId } = (await created.json()) as { id: string };
    const started = await api('/tasks', { testId });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    // `curl -N .../log-stream` right after the POST.
    const response = await fetch(`${service.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('text/event-stream');
    const { events, ended } = await readSse(response);
    // The script's lines: its `sleep 1`s (or a slow sandbox start) on a busy machine can add the agent's progress lines.
    expect(scriptLines(events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text)))).toEqual(lines);
    expect(events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'completed' } });
    expect(ended).toBe(true);
  }
}, 90_000);
