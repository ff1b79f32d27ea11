/** GET /audit-log?action=&actor=: the filters apply in the database, so a page is full and paging keeps them. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

interface Entry {
  action: string;
  actor: { type: string; id: string | null; label: string | null; user_id: string | null };
  target: { label: string | null };
}
const entries = async (token: string, query: string) => {
  const response = await ts.request(`/api/v1/audit-log?${query}`, { token });
  expect(response.status).toBe(200);
  return { list: (await response.json()) as Entry[], next: response.headers.get('link')?.match(/<([^>]+)>/)?.[1] ?? null };
};

test('filters by action and by actor (id or name, case-insensitive; wildcards are literal), paged with the filter', async () => {
  const owner = await ts.createUser('audit_owner');
  const made = (await (await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'robot%', scopes: ['tests:write'] } })).json()) as { id: string; token: string };
  for (const name of ['t1', 't2', 't3']) await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name, tool: 'custom', script: 'echo' } });
  await ts.request('/api/v1/tests', { method: 'POST', token: made.token, json: { name: 'by-robot', tool: 'custom', script: 'echo' } });

  const created = await entries(owner, 'action=test.created');
  expect(created.list.map((e) => e.target.label)).toEqual(['by-robot', 't3', 't2', 't1']);

  const byRobot = await entries(owner, `actor=${made.id}`);
  expect(byRobot.list.map((e) => e.target.label)).toEqual(['by-robot']);
  expect((await entries(owner, 'actor=ROBOT%25')).list.map((e) => e.target.label)).toEqual(['by-robot']);
  // `%` and `_` match themselves, not any text: "robot_" names no actor, "audit%" neither.
  expect((await entries(owner, 'actor=robot_')).list).toEqual([]);
  expect((await entries(owner, 'actor=audit%25')).list).toEqual([]);

  const mine = await entries(owner, 'actor=Audit_Owner&action=test.created&limit=2');
  expect(mine.list.map((e) => e.target.label)).toEqual(['t3', 't2']);
  expect(mine.next).toContain('action=test.created');
  const rest = await entries(owner, mine.next!.replace('/api/v1/audit-log?', ''));
  expect(rest.list.map((e) => e.target.label)).toEqual(['t1']);

  const userId = mine.list[0]!.actor.user_id!;
  expect((await entries(owner, `actor=${userId}&action=test.created`)).list.length).toBe(4);
  expect((await ts.request(`/api/v1/audit-log?action=${'x'.repeat(201)}`, { token: owner })).status).toBe(400);
});
