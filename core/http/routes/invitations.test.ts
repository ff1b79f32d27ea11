import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let counter = 0;

async function user(prefix = 'inv') {
  const name = `${prefix}${++counter}`;
  const token = await ts.createUser(name);
  await ts.request('/api/v1/auth/me', { token });
  const workspace = (await (await ts.request('/api/v1/workspace', { token })).json()) as { id: string };
  return { name, token, workspaceId: workspace.id };
}

const invite = (token: string, user: string, role = 'member', headers: Record<string, string> = {}) =>
  ts.request('/api/v1/members', { method: 'POST', token, headers, json: { user, role } });
const received = async (token: string) => (await (await ts.request('/api/v1/auth/me/invitations', { token })).json()) as { id: string; workspace: { id: string; name: string }; role: string; invited_by: string | null; invited_at: string; expires_at: string }[];
const accept = (token: string, id: string) => ts.request(`/api/v1/auth/me/invitations/${id}/accept`, { method: 'POST', token });

beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('invitations', () => {
  test('accepting joins with the invited role, once; the invitee then acts there with X-Workspace-Id', async () => {
    const owner = await user();
    const joe = await user();
    const invited = (await (await invite(owner.token, joe.name, 'admin')).json()) as { id: string };
    // Not a member yet: the workspace is out of reach.
    expect((await ts.request('/api/v1/tests', { token: joe.token, headers: { 'x-workspace-id': owner.workspaceId } })).status).toBe(404);
    const mine = await received(joe.token);
    expect(mine).toEqual([
      { id: invited.id, workspace: { id: owner.workspaceId, name: expect.any(String) }, role: 'admin', invited_by: owner.name, invited_at: expect.any(String), expires_at: expect.any(String) },
    ]);
    const joined = await accept(joe.token, invited.id);
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ workspace: { id: owner.workspaceId, name: mine[0]!.workspace.name }, role: 'admin', joined_at: expect.any(String) });
    expect((await accept(joe.token, invited.id)).status).toBe(404);
    expect(await received(joe.token)).toEqual([]);
    const asJoe = await ts.request('/api/v1/workspace', { token: joe.token, headers: { 'x-workspace-id': owner.workspaceId } });
    expect(((await asJoe.json()) as { role: string }).role).toBe('admin');
    // Their own workspace stays their default.
    expect(((await (await ts.request('/api/v1/workspace', { token: joe.token })).json()) as { id: string }).id).toBe(joe.workspaceId);
    const log = (await (await ts.request('/api/v1/audit-log?limit=2', { token: owner.token })).json()) as { action: string; actor: { label: string } }[];
    expect(log.map((e) => [e.action, e.actor.label])).toEqual([['member.added', joe.name], ['member.invited', owner.name]]);
  });

  test('an invitation expires after seven days: the invitee no longer sees or accepts it, the workspace sees it expired and may invite again', async () => {
    const owner = await user();
    const eve = await user();
    const invited = (await (await invite(owner.token, eve.name)).json()) as { id: string; invited_at: string; expires_at: string };
    expect(Date.parse(invited.expires_at) - Date.parse(invited.invited_at)).toBe(7 * 24 * 3600 * 1000);
    // Eight days old, as if it had been sent a week and a day ago.
    await ts.service.database
      .fork()
      .getConnection()
      .execute(`update member_invitations set created_at = now() - interval '8 days' where id = ?`, [invited.id]);
    expect(await received(eve.token)).toEqual([]);
    const late = await accept(eve.token, invited.id);
    expect(late.status).toBe(404);
    expect(((await late.json()) as { message: string }).message).toContain('expired');
    const listed = (await (await ts.request('/api/v1/members/invitations', { token: owner.token })).json()) as { id: string; status: string }[];
    expect(listed.map((i) => [i.id, i.status])).toEqual([[invited.id, 'expired']]);
    // A new invitation replaces the expired one (the pair is unique), and that one works.
    const again = await invite(owner.token, eve.name);
    expect(again.status).toBe(201);
    const renewed = (await again.json()) as { id: string; status: string };
    expect(renewed.status).toBe('pending');
    expect((await accept(eve.token, renewed.id)).status).toBe(200);
  });

  test('a withdrawn invitation cannot be accepted; a declined one is gone for the workspace too', async () => {
    const owner = await user();
    const kim = await user();
    const first = (await (await invite(owner.token, kim.name)).json()) as { id: string };
    expect((await ts.request(`/api/v1/members/invitations/${first.id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect((await accept(kim.token, first.id)).status).toBe(404);
    const second = (await (await invite(owner.token, kim.name)).json()) as { id: string };
    expect((await ts.request(`/api/v1/auth/me/invitations/${second.id}`, { method: 'DELETE', token: kim.token })).status).toBe(204);
    expect(await (await ts.request('/api/v1/members/invitations', { token: owner.token })).json()).toEqual([]);
    const log = (await (await ts.request('/api/v1/audit-log?limit=4', { token: owner.token })).json()) as { action: string }[];
    expect(log.map((e) => e.action)).toEqual(['member.invitation_declined', 'member.invited', 'member.invitation_withdrawn', 'member.invited']);
  });

  test("a pending invitee is no member: PATCH and DELETE /members/:userId answer 404; another workspace cannot withdraw it", async () => {
    const owner = await user();
    const other = await user();
    const lee = await user();
    const invitation = (await (await invite(owner.token, lee.name)).json()) as { id: string };
    const leeId = ((await (await ts.request('/api/v1/members', { token: lee.token })).json()) as { user_id: string }[])[0]!.user_id;
    expect((await ts.request(`/api/v1/members/${leeId}`, { method: 'PATCH', token: owner.token, json: { role: 'admin' } })).status).toBe(404);
    expect((await ts.request(`/api/v1/members/${leeId}`, { method: 'DELETE', token: owner.token })).status).toBe(404);
    expect((await ts.request(`/api/v1/members/invitations/${invitation.id}`, { method: 'DELETE', token: other.token })).status).toBe(404);
    expect(await (await ts.request('/api/v1/members/invitations', { token: other.token })).json()).toEqual([]);
    expect((await ts.request(`/api/v1/auth/me/invitations/${invitation.id}`, { method: 'DELETE', token: other.token })).status).toBe(404);
    expect((await accept(lee.token, invitation.id)).status).toBe(200);
  });

  test('admins invite but not as owner; members may not invite; a blank handle is a 400', async () => {
    const owner = await user();
    const admin = await user();
    const member = await user();
    const target = await user();
    for (const [person, role] of [[admin, 'admin'], [member, 'member']] as const) {
      const { id } = (await (await invite(owner.token, person.name, role)).json()) as { id: string };
      expect((await accept(person.token, id)).status).toBe(200);
    }
    const there = { 'x-workspace-id': owner.workspaceId };
    expect((await invite(admin.token, target.name, 'owner', there)).status).toBe(403);
    expect((await invite(member.token, target.name, 'viewer', there)).status).toBe(403);
    expect((await ts.request('/api/v1/members/invitations', { token: member.token, headers: there })).status).toBe(403);
    const blank = await invite(admin.token, '   ', 'viewer', there);
    expect(blank.status).toBe(400);
    expect(((await blank.json()) as { message: string }).message).toContain('username or an e-mail');
    expect((await invite(admin.token, target.name, 'viewer', there)).status).toBe(201);
  });
});
