/**
 * Plan limits hold when the requests that would cross them arrive at once: each creation counts and inserts under the
 * workspace row's lock (core/services/workspace-scope.ts, lockWorkspace), so on PostgreSQL, where the transactions
 * really run side by side, exactly the limit's number succeed and the rest get the limit's 403.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
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
