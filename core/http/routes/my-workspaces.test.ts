import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

interface Mine {
  id: string;
  name: string;
  plan: string;
  role: string;
  current: boolean;
}
const mine = async (token: string, headers: Record<string, string> = {}) => {
  const response = await ts.request('/api/v1/auth/me/workspaces', { token, headers });
  expect(response.status).toBe(200);
  return (await response.json()) as Mine[];
};

test('GET /auth/me/workspaces lists where the user may act, marks the current one, and a token sees only its own', async () => {
  const owner = await ts.createUser('ws-owner');
  const guest = await ts.createUser('ws-guest');
  const [ownersOwn] = await mine(owner);
  const [guestsOwn] = await mine(guest);
  expect(ownersOwn).toMatchObject({ role: 'owner', current: true });
  expect(guestsOwn!.id).not.toBe(ownersOwn!.id);

  // The guest joins the owner's workspace as a viewer.
  const invited = (await (await ts.request('/api/v1/members', { method: 'POST', token: owner, json: { user: 'ws-guest', role: 'viewer' } })).json()) as { id: string };
  expect((await ts.request(`/api/v1/auth/me/invitations/${invited.id}/accept`, { method: 'POST', token: guest })).status).toBe(200);

  const both = await mine(guest);
  expect(both.map((w) => [w.id, w.role, w.current])).toEqual([
    [guestsOwn!.id, 'owner', true],
    [ownersOwn!.id, 'viewer', false],
  ]);
  const switched = await mine(guest, { 'x-workspace-id': ownersOwn!.id });
  expect(switched.find((w) => w.current)?.id).toBe(ownersOwn!.id);

  // The owner's workspace is not the guest's to list as theirs, and an API token acts only where it was created.
  expect((await mine(owner)).map((w) => w.id)).toEqual([ownersOwn!.id]);
  const created = (await (await ts.request('/api/v1/api-tokens', { method: 'POST', token: guest, json: { name: 'ci', scopes: ['runs:read'] } })).json()) as { token: string };
  expect((await mine(created.token)).map((w) => [w.id, w.current])).toEqual([[guestsOwn!.id, true]]);
  expect((await ts.request('/api/v1/auth/me/workspaces')).status).toBe(401);
});
