/** Agents as real processes against a real server: one run on two machines (merged percentiles), cancel, an agent killed, the server restarted. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentProcess, startAgentProcess } from '../helpers/agent-process.ts';
import { processTreeOf, uniqueSleep } from '../helpers/process-probes.ts';
import { scriptLines } from '../helpers/script-log.ts';
import { passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

let dataDir: string;
let server: ServiceProcess;
let env: Record<string, string>;
let jwt: string;
const agents: AgentProcess[] = [];

async function api(path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${server.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await Bun.sleep(100);
  }
}

const task = (id: string) => api(`/tasks/${id}`).then((r) => r.json() as Promise<Record<string, unknown>>);
const machines = () => api('/machines').then((r) => r.json() as Promise<{ id: string; hostname: string; status: string }[]>);

async function runScript(script: string, machineIds?: string[]) {
  const created = await api('/tests', { method: 'POST', json: { name: 'agent test', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const started = await api('/tasks', { method: 'POST', json: { testId, ...(machineIds ? { machineIds } : {}) } });
  expect(started.status).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loadplane-agents-'));
  env = {
    DATA_DIR: dataDir,
    LOCAL_AGENT: 'false',
    BOOTSTRAP_ADMIN_USERNAME: 'admin',
    BOOTSTRAP_ADMIN_PASSWORD: 'agents-admin-password',
    AUTH_CLIENT_SECRET: 'agents-client-secret',
    // Long enough for a restart (about 1.5 s, but 5 s and more on a busy 2-core machine) plus the agent's jittered
    // backoff (0.5, 1, 2, 4 s) to fit, short enough to wait out.
    AGENT_GRACE_SECONDS: '15',
    PUBLIC_URL: 'http://loadplane.test:8080',
  };
  server = await startServiceProcess({ env });
  jwt = await passwordGrant(server.url, { username: 'admin', password: 'agents-admin-password', clientSecret: 'agents-client-secret' });
  const created = await api('/api-tokens', { method: 'POST', json: { name: 'agents', scopes: ['machines:write', 'runs:write'] } });
  const { token } = (await created.json()) as { token: string };
  for (const hostname of ['gen-a', 'gen-b']) agents.push(startAgentProcess({ serverUrl: server.url, token, hostname }));
  for (const agent of agents) await agent.registered();
}, 90_000);

afterAll(async () => {
  for (const agent of agents) await agent.kill('SIGKILL');
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('runs on real agents', () => {
  test('the agents registered their machines, online, with what they detected', async () => {
    const list = await waitFor(machines, (l) => l.filter((m) => m.status === 'online').length === 2);
    expect(list.map((m) => m.hostname).sort()).toEqual(['gen-a', 'gen-b']);
  });

  test('two machines on one run: the merged p95 equals the p95 of all samples pooled (HDR precision)', async () => {
    // Machine 0 is fast (1-100.9 ms), machine 1 slow (201-300.9 ms, every 10th request an error).
    const script = `#!/bin/sh
i=1
while [ $i -le 1000 ]; do
  v=$(( (i * 7919) % 1000 + 10 + LOADPLANE_MACHINE_INDEX * 2000 ))
  if [ "$LOADPLANE_MACHINE_INDEX" = 1 ] && [ $((i % 10)) = 0 ]; then s=error; else s=ok; fi
  echo "loadplane:sample $((v / 10)).$((v % 10)) $s"
  i=$((i+1))
done
echo "machine $LOADPLANE_MACHINE_INDEX of $LOADPLANE_MACHINE_COUNT done"
`;
    const ids = (await machines()).map((m) => m.id);
    const id = await runScript(script, ids);
    const final = await waitFor(() => task(id), (t) => t.status === 'completed' || t.status === 'failed');
    expect(final.status).toBe('completed');
    const pooled: number[] = [];
    for (const m of [0, 1]) for (let i = 1; i <= 1000; i++) pooled.push((((i * 7919) % 1000) + 10 + m * 2000) / 10);
    pooled.sort((a, b) => a - b);
    const exact = (p: number) => pooled[Math.ceil((p / 100) * pooled.length) - 1]!;
    for (const [field, p] of [['p50', 50], ['p95', 95], ['p99', 99]] as const) {
      expect(Math.abs((final[field] as number) - exact(p))).toBeLessThanOrEqual(exact(p) / 1024 + 0.01);
    }
    expect(final.total_requests).toBe(2000);
    expect(final.error_rate).toBeCloseTo(100 / 2000, 6);
    expect(final.requests_per_sec as number).toBeGreaterThan(0);
    const logs = await readSse(await fetch(`${server.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${jwt}` } }));
    // The scripts' lines; a quiet spell on a busy machine can add the agents' progress lines.
    const texts = scriptLines(logs.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text))).sort();
    expect(texts).toEqual(['machine 0 of 2 done', 'machine 1 of 2 done']);
  }, 60_000);

  test('cancel kills the whole process tree and the task ends cancelled', async () => {
    // The script runs in its own pid namespace and /tmp (the tool sandbox): its $$ and $! mean nothing out here, so
    // the tree is found from outside, by a sleep with a unique argument and that sleep's parent, the script's shell.
    const marker = uniqueSleep();
    const script = `#!/bin/sh\nsleep ${marker} &\necho started\nwait\n`;
    const id = await runScript(script);
    const pids = await waitFor(async () => processTreeOf(marker), (found) => found.length === 2);
    const cancelled = await api(`/tasks/${id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(204);
    expect((await task(id)).status).toBe('cancelled');
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(async () => pids.filter(alive), (left) => left.length === 0, 15_000);
    // The machine is free again for the next run.
    await waitFor(machines, (l) => l.every((m) => m.status === 'online'));
  }, 60_000);

  test('an agent killed mid-run: the run fails after the grace period with a reason, never stays running', async () => {
    const target = (await machines()).find((m) => m.hostname === 'gen-b')!;
    const id = await runScript('#!/bin/sh\necho working\nsleep 120\n', [target.id]);
    await waitFor(() => task(id), (t) => t.status === 'running');
    await Bun.sleep(500);
    const agentB = agents[1]!;
    await agentB.kill('SIGKILL');
    const final = await waitFor(() => task(id), (t) => t.status !== 'running', 40_000);
    expect(final.status).toBe('failed');
    expect(String(final.error)).toContain('did not come back');
    const late = await readSse(await fetch(`${server.url}/api/v1/tasks/${id}/log-stream`, { headers: { authorization: `Bearer ${jwt}` } }));
    expect(late.events.at(-1)!.data).toMatchObject({ type: 'done', task: { status: 'failed' } });
    expect((await machines()).find((m) => m.hostname === 'gen-b')!.status).toBe('offline');
  }, 60_000);

  test('the server restarted mid-run: the agent reconnects, resumes, and the run completes with every line', async () => {
    const target = (await machines()).find((m) => m.hostname === 'gen-a')!;
    const id = await runScript('#!/bin/sh\ni=1\nwhile [ $i -le 40 ]; do echo "tick $i"; i=$((i+1)); sleep 0.1; done\n', [target.id]);
    await waitFor(() => task(id), (t) => t.status === 'running');
    await Bun.sleep(800);
    // Same port (the agents dial it), same DATA_DIR and database; the old process must exit 0 on SIGTERM.
    server = await server.restart();
    await agents[0]!.registered(2);
    const final = await waitFor(() => task(id), (t) => t.status === 'completed' || t.status === 'failed', 30_000);
    expect(final.status, JSON.stringify(final)).toBe('completed');
    const logs = await readSse(await fetch(`${server.url}/api/v1/tasks/${id}/log-stream?after=0`, { headers: { authorization: `Bearer ${jwt}` } }));
    // The script's lines: the agent's progress lines may fill the quiet while the server restarts.
    const texts = scriptLines(logs.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text)));
    expect(texts).toEqual(Array.from({ length: 40 }, (_, i) => `tick ${i + 1}`));
  }, 90_000);
});
