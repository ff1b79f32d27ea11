/**
 * Deleting a machine races the dispatcher placing a run on it: either the deletion wins (the run fails with a reason,
 * nothing is ever assigned to the gone machine) or the placement wins (409, the run goes ahead). Never both.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createProtocolAgent, type ProtocolAgent } from '../helpers/protocol-agent.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let token: string;
let agentToken: string;
const agents: ProtocolAgent[] = [];

const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
  ts.request(`/api/v1${path}`, { method: init.method ?? 'GET', token, ...(init.json !== undefined ? { json: init.json } : {}) });
const sql = <T>(text: string, params: unknown[] = []) =>
  (ts.service.database.fork() as unknown as { getConnection(): { execute(s: string, p: unknown[]): Promise<T[]> } }).getConnection().execute(text, params);

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await Bun.sleep(20);
  }
}

beforeAll(async () => {
  ts = await startTestService();
  await ts.listen();
  const owner = await ts.apiToken('race-owner', ['tests:write', 'tests:read', 'runs:write', 'runs:read', 'machines:write', 'machines:read']);
  token = owner.token;
  const minted = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner.jwt, json: { name: 'agents', scopes: ['machines:write', 'runs:write'] } });
  if (minted.status !== 201) throw new Error(`agent token: ${minted.status} ${await minted.text()}`);
  agentToken = ((await minted.json()) as { token: string }).token;
}, 60_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  await ts?.stop();
});

test('delete a machine while a run is being placed on it: the deletion or the run wins, never both', async () => {
  const created = await api('/tests', { method: 'POST', json: { name: 'race', tool: 'custom', script: '#!/bin/sh\necho hi\n' } });
  const testId = ((await created.json()) as { id: string }).id;
  const outcomes = { deleted: 0, placed: 0 };
  // How far the agent's hello leads the DELETE (ms; negative: the DELETE leads) adapts to this machine, not to fixed
  // head starts: after each outcome the losing side gets more room, doubling while the same side keeps winning and
  // halving once it flips. The rounds gather where the two arrive together, however fast or loaded the machine, and
  // both outcomes occur.
  let lead = 0;
  let step = 4;
  let last: 'deleted' | 'placed' | null = null;
  for (let round = 0; round < 30; round++) {
    const agent = createProtocolAgent({ origin: ts.url, token: agentToken, hostname: `race-${round}`, tools: ['custom'] });
    agents.push(agent);
    await agent.connect();
    const machineId = agent.machineId()!;
    // The run waits for the machine's agent; the agent comes back (the dispatcher places the run) while the machine
    // is deleted.
    await agent.disconnect();
    const started = await api('/tasks', { method: 'POST', json: { testId, machineIds: [machineId] } });
    expect(started.status).toBe(202);
    const [, deleted] = await Promise.all([
      Bun.sleep(Math.max(0, -lead)).then(() => agent.connect()),
      Bun.sleep(Math.max(0, lead)).then(() => api(`/machines/${machineId}`, { method: 'DELETE' })),
    ]);
    const outcome = deleted.status === 204 ? 'deleted' : 'placed';
    step = last === null || outcome === last ? Math.min(step * 2, 4_000) : Math.max(1, step / 2);
    lead += outcome === 'deleted' ? step : -step;
    last = outcome;
    if (deleted.status === 204) {
      outcomes.deleted++;
      const taskId = ((await started.json()) as { id: string }).id;
      const done = await until(
        async () => (await (await api(`/tasks/${taskId}`)).json()) as { status: string },
        (t) => t.status === 'failed',
      );
      expect(done.status).toBe('failed');
      expect(await sql('select id from task_assignments where machine_id = ?', [machineId])).toEqual([]);
    } else {
      expect(deleted.status).toBe(409);
      outcomes.placed++;
      const rows = await sql<{ status: string }>('select status from task_assignments where machine_id = ?', [machineId]);
      expect(rows.length).toBe(1);
      expect(((await (await api('/machines')).json()) as { id: string }[]).some((m) => m.id === machineId)).toBe(true);
    }
    await agent.stop();
  }
  // Both sides of the race were exercised, so the test says something about each.
  expect(outcomes.deleted).toBeGreaterThan(0);
  expect(outcomes.placed).toBeGreaterThan(0);
  if (process.env.DEBUG_RACE) console.log(outcomes, { lead });
}, 120_000);
