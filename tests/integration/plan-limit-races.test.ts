/**
 * Plan limits hold when the requests that would cross them arrive at once: each creation counts and inserts under the
 * workspace row's lock (core/services/workspace-scope.ts, lockWorkspace), so on PostgreSQL, where the transactions
 * really run side by side, exactly the limit's number succeed and the rest get the limit's 403. The rule that a
 * workspace keeps an owner holds the same way when two owners demote or remove each other at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
}, 60_000);
afterAll(() => ts.stop());

/** A new user's own workspace on this plan. */
async function owner(name: string, plan: 'starter' | 'enterprise') {
  const token = await ts.createUser(name);
  const patched = await ts.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan } });
  expect(patched.status).toBe(200);
  return token;
}

/** Sends every request at once; the statuses, and the error codes of the refused ones. */
async function atOnce(requests: (() => Promise<Response>)[]) {
  const answers = await Promise.all(requests.map((send) => send()));
  const statuses = answers.map((answer) => answer.status);
  const errors = await Promise.all(answers.filter((answer) => answer.status >= 400).map(async (answer) => ((await answer.json()) as { error: string }).error));
  return { created: statuses.filter((status) => status === 201).length, statuses, errors };
}

describe('plan limits under concurrent creations', () => {
  test('starter allows 2 machines: of 6 registered at once, 2 are created and 4 refused', async () => {
    const token = await owner('race-machines', 'starter');
    const result = await atOnce(
      Array.from({ length: 6 }, (_, i) => () => ts.request('/api/v1/machines', { method: 'POST', token, json: { name: `m${i}`, hostname: `gen-${i}`, ip_address: '10.0.0.1' } })),
    );
    expect(result.created, `statuses ${result.statuses.join(', ')}`).toBe(2);
    expect(result.errors).toEqual(Array(4).fill('plan_limit_machines'));
    expect(((await (await ts.request('/api/v1/machines', { token })).json()) as unknown[]).length).toBe(2);
  });

  test('starter allows 25 tests: of 30 created at once, 25 are created and 5 refused', async () => {
    const token = await owner('race-tests', 'starter');
    const result = await atOnce(
      Array.from({ length: 30 }, (_, i) => () => ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `t${i}`, tool: 'k6', script: 'export default function () {}' } })),
    );
    expect(result.created, `statuses ${result.statuses.join(', ')}`).toBe(25);
    expect(result.errors).toEqual(Array(5).fill('plan_limit_tests'));
  });

  test('starter allows 5 schedules: of 8 created at once, 5 are created and 3 refused', async () => {
    const token = await owner('race-schedules', 'starter');
    const test = (await (await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'scheduled', tool: 'k6', script: 'export default function () {}' } })).json()) as { id: string };
    const result = await atOnce(
      Array.from({ length: 8 }, (_, i) => () => ts.request('/api/v1/schedules', { method: 'POST', token, json: { test_id: test.id, cron: `${i} 0 1 1 *` } })),
    );
    expect(result.created, `statuses ${result.statuses.join(', ')}`).toBe(5);
    expect(result.errors).toEqual(Array(3).fill('plan_limit_schedules'));
    expect(((await (await ts.request('/api/v1/schedules', { token })).json()) as unknown[]).length).toBe(5);
  });

  test('enterprise allows 5 API tokens per user: of 9 created at once, 5 are created and 4 refused', async () => {
    const token = await owner('race-tokens', 'enterprise');
    const result = await atOnce(Array.from({ length: 9 }, (_, i) => () => ts.request('/api/v1/api-tokens', { method: 'POST', token, json: { name: `k${i}` } })));
    expect(result.created, `statuses ${result.statuses.join(', ')}`).toBe(5);
    expect(result.errors).toEqual(Array(4).fill('plan_limit_api_tokens'));
    expect(((await (await ts.request('/api/v1/api-tokens', { token })).json()) as unknown[]).length).toBe(5);
  });

  test('one hostname registered 4 times at once: one machine, three 409s', async () => {
    const token = await owner('race-hostname', 'enterprise');
    const result = await atOnce(
      Array.from({ length: 4 }, () => () => ts.request('/api/v1/machines', { method: 'POST', token, json: { name: 'same', hostname: 'same-host', ip_address: '10.0.0.2' } })),
    );
    expect(result.created).toBe(1);
    expect(result.statuses.filter((status) => status === 409)).toHaveLength(3);
  });
});

describe('the last owner under concurrent changes', () => {
  /** A workspace with two owners, each with the header that addresses it, and their member ids. */
  async function twoOwners(round: number) {
    const first = await owner(`owner-a-${round}`, 'enterprise');
    const workspaceId = ((await (await ts.request('/api/v1/workspace', { token: first })).json()) as { id: string }).id;
    const second = await ts.createUser(`owner-b-${round}`);
    await ts.request('/api/v1/workspace', { token: second });
    await inviteAndAccept(ts, first, `owner-b-${round}`, 'owner', second);
    const headers = { 'x-workspace-id': workspaceId };
    const members = (await (await ts.request('/api/v1/members', { token: first })).json()) as { user_id: string; username: string; role: string }[];
    expect(members.filter((m) => m.role === 'owner')).toHaveLength(2);
    const idOf = (name: string) => members.find((m) => m.username === name)!.user_id;
    return { first, second, headers, firstId: idOf(`owner-a-${round}`), secondId: idOf(`owner-b-${round}`) };
  }

  const owners = async (token: string) =>
    ((await (await ts.request('/api/v1/members', { token })).json()) as { role: string }[]).filter((m) => m.role === 'owner').length;

  test('two owners demoting each other at once: one demotion wins, the other is refused as the last owner', async () => {
    for (let round = 0; round < 4; round++) {
      const { first, second, headers, firstId, secondId } = await twoOwners(round);
      const [a, b] = await Promise.all([
        ts.request(`/api/v1/members/${secondId}`, { method: 'PATCH', token: first, headers, json: { role: 'admin' } }),
        ts.request(`/api/v1/members/${firstId}`, { method: 'PATCH', token: second, headers, json: { role: 'admin' } }),
      ]);
      expect([a.status, b.status].filter((status) => status === 200), `statuses ${a.status}, ${b.status}`).toHaveLength(1);
      const refused = a.status === 200 ? b : a;
      expect(((await refused.json()) as { error: string }).error).toMatch(/last_owner|forbidden|insufficient/);
      expect(await owners(a.status === 200 ? first : second)).toBe(1);
    }
  });

  test('two owners removing each other at once: one removal wins, the workspace keeps an owner', async () => {
    for (let round = 4; round < 8; round++) {
      const { first, second, headers, firstId, secondId } = await twoOwners(round);
      const [a, b] = await Promise.all([
        ts.request(`/api/v1/members/${secondId}`, { method: 'DELETE', token: first, headers }),
        ts.request(`/api/v1/members/${firstId}`, { method: 'DELETE', token: second, headers }),
      ]);
      expect([a.status, b.status].filter((status) => status === 204), `statuses ${a.status}, ${b.status}`).toHaveLength(1);
      expect(await owners(a.status === 204 ? first : second)).toBe(1);
    }
  });
});
