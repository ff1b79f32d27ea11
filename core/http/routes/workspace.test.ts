import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
let counter = 0;
/** Bearer token by username and by e-mail, so an invitation can be accepted by the person it names. */
const tokenOf = new Map<string, string>();

/** A signed-in user (profile created) with a workspace of their own; their e-mail is verified by the IdP. */
async function user(prefix = 'u') {
  const name = `${prefix}${++counter}`;
  const token = await ts.createUser(name, { emailVerified: true });
  await ts.request('/api/v1/auth/me', { token });
  const workspace = (await (await ts.request('/api/v1/workspace', { token })).json()) as { id: string };
  tokenOf.set(name, token).set(`${name}@example.test`, token);
  return { name, token, workspaceId: workspace.id };
}

/** Invites the user and has them accept: the invitation's answer (201 when it was made). */
async function addMember(ownerToken: string, handle: string, role: string, headers: Record<string, string> = {}) {
  return (await inviteAndAccept(ts, ownerToken, handle, role, tokenOf.get(handle) ?? '', headers)).invited;
}

async function memberId(token: string, name: string) {
  const members = (await (await ts.request('/api/v1/members', { token })).json()) as { user_id: string; username: string }[];
  return members.find((m) => m.username === name)!.user_id;
}

beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('workspace', () => {
  test('GET /workspace shows plan, limits, role and permissions', async () => {
    const alice = await user();
    const response = await ts.request('/api/v1/workspace', { token: alice.token });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: alice.workspaceId,
      plan: 'enterprise',
      status: 'active',
      role: 'owner',
      limits: { apiTokensPerUser: 5, machines: null },
      permissions: expect.arrayContaining(['manage_api_tokens', 'manage_billing']),
    });
  });

  test('a suspended workspace refuses its members and tokens with workspace_suspended', async () => {
    const alice = await user();
    const token = ((await (await ts.request('/api/v1/api-tokens', { method: 'POST', token: alice.token, json: { name: 'x' } })).json()) as { token: string }).token;
    await ts.service.database.fork().getConnection().execute(`update workspaces set status = 'suspended' where id = '${alice.workspaceId}'`);
    // The change reaches the caches through the change feed, as an operator tool would publish it.
    await ts.service.kernel.get((await import('../../ports/change-feed.ts')).changeFeedPort).publish({ kind: 'workspace', workspaceId: alice.workspaceId });
    for (const bearer of [alice.token, token]) {
      const response = await ts.request('/api/v1/machines', { token: bearer });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe('workspace_suspended');
    }
  });
});

describe('members', () => {
  test('add by username or e-mail, list, change role, remove; each in the audit log', async () => {
    const owner = await user('own');
    const bob = await user('bob');
    const carol = await user('carol');
    expect((await addMember(owner.token, bob.name, 'member')).status).toBe(201);
    const byEmail = await addMember(owner.token, `${carol.name}@example.test`, 'viewer');
    expect(byEmail.status).toBe(201);
    // The invitation shows what the inviter typed, nothing of the invitee's profile.
    expect(await byEmail.json()).toEqual({ id: expect.any(String), user: `${carol.name}@example.test`, role: 'viewer', status: 'pending', invited_at: expect.any(String), expires_at: expect.any(String) });

    const members = (await (await ts.request('/api/v1/members', { token: owner.token })).json()) as { username: string; role: string }[];
    expect(members.map((m) => [m.username, m.role])).toEqual([
      [owner.name, 'owner'],
      [bob.name, 'member'],
      [carol.name, 'viewer'],
    ]);

    const bobId = await memberId(owner.token, bob.name);
    const changed = await ts.request(`/api/v1/members/${bobId}`, { method: 'PATCH', token: owner.token, json: { role: 'admin' } });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { role: string }).role).toBe('admin');
    expect((await ts.request(`/api/v1/members/${bobId}`, { method: 'DELETE', token: owner.token })).status).toBe(204);

    const log = (await (await ts.request('/api/v1/audit-log?limit=6', { token: owner.token })).json()) as { action: string; details: Record<string, unknown> }[];
    expect(log.map((e) => e.action)).toEqual(['member.removed', 'member.role_changed', 'member.added', 'member.invited', 'member.added', 'member.invited']);
    expect(log[1]!.details).toEqual({ from: 'member', to: 'admin' });
  });

  test('errors: unknown user 404, duplicate 409, bad role 400, foreign member id 404', async () => {
    const owner = await user('own');
    const dan = await user('dan');
    expect((await addMember(owner.token, 'nobody-here', 'member')).status).toBe(404);
    expect((await addMember(owner.token, dan.name, 'member')).status).toBe(201);
    expect((await addMember(owner.token, dan.name, 'member')).status).toBe(409);
    expect((await addMember(owner.token, dan.name, 'superuser')).status).toBe(400);
    const stranger = await user('stranger');
    const strangerId = await memberId(stranger.token, stranger.name);
    expect((await ts.request(`/api/v1/members/${strangerId}`, { method: 'DELETE', token: owner.token })).status).toBe(404);
  });

  test('the last owner can be neither demoted nor removed; a second owner makes both possible', async () => {
    const owner = await user('own');
    const ownerId = await memberId(owner.token, owner.name);
    const demote = await ts.request(`/api/v1/members/${ownerId}`, { method: 'PATCH', token: owner.token, json: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(((await demote.json()) as { error: string }).error).toBe('last_owner');
    const remove = await ts.request(`/api/v1/members/${ownerId}`, { method: 'DELETE', token: owner.token });
    expect(remove.status).toBe(409);

    const erin = await user('erin');
    expect((await addMember(owner.token, erin.name, 'owner')).status).toBe(201);
    expect((await ts.request(`/api/v1/members/${ownerId}`, { method: 'PATCH', token: owner.token, json: { role: 'admin' } })).status).toBe(200);
    // Now erin is the last owner.
    const erinId = await memberId(erin.token, erin.name);
    const erinWorkspace = { 'x-workspace-id': owner.workspaceId };
    const last = await ts.request(`/api/v1/members/${erinId}`, { method: 'DELETE', token: erin.token, headers: erinWorkspace });
    expect(last.status).toBe(409);
  });

  test('admins manage members but cannot grant, change or remove the owner role', async () => {
    const owner = await user('own');
    const admin = await user('adm');
    const frank = await user('frank');
    await addMember(owner.token, admin.name, 'admin');
    const asAdmin = { 'x-workspace-id': owner.workspaceId };
    const promote = await ts.request('/api/v1/members', { method: 'POST', token: admin.token, headers: asAdmin, json: { user: frank.name, role: 'owner' } });
    expect(promote.status).toBe(403);
    expect((await addMember(admin.token, frank.name, 'member', asAdmin)).status).toBe(201);
    const adminId = await memberId(owner.token, admin.name);
    const self = await ts.request(`/api/v1/members/${adminId}`, { method: 'PATCH', token: admin.token, headers: asAdmin, json: { role: 'owner' } });
    expect(self.status).toBe(403);
    const ownerId = await memberId(owner.token, owner.name);
    expect((await ts.request(`/api/v1/members/${ownerId}`, { method: 'DELETE', token: admin.token, headers: asAdmin })).status).toBe(403);
  });

  test('a role change and a removal take effect at once, for JWTs and API tokens', async () => {
    const owner = await user('own');
    const gina = await user('gina');
    await addMember(owner.token, gina.name, 'member');
    const headers = { 'x-workspace-id': owner.workspaceId };
    const create = () => ts.request('/api/v1/tests', { method: 'POST', token: gina.token, headers, json: { name: 't', tool: 'k6', script: 'export default function () {}' } });
    expect((await create()).status).toBe(201);
    const ginaId = await memberId(owner.token, gina.name);
    await ts.request(`/api/v1/members/${ginaId}`, { method: 'PATCH', token: owner.token, json: { role: 'viewer' } });
    expect((await create()).status).toBe(403);
    await ts.request(`/api/v1/members/${ginaId}`, { method: 'DELETE', token: owner.token });
    expect((await ts.request('/api/v1/tests', { token: gina.token, headers })).status).toBe(404);
  });

  test("a removed member's API token for that workspace stops working", async () => {
    const owner = await user('own');
    const hank = await user('hank');
    await addMember(owner.token, hank.name, 'admin');
    const headers = { 'x-workspace-id': owner.workspaceId };
    const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: hank.token, headers, json: { name: 'in shared' } });
    const { token } = (await created.json()) as { token: string };
    const own = (await (await ts.request('/api/v1/workspace', { token })).json()) as { id: string };
    expect(own.id).toBe(owner.workspaceId);
    await ts.request(`/api/v1/members/${await memberId(owner.token, hank.name)}`, { method: 'DELETE', token: owner.token });
    expect((await ts.request('/api/v1/machines', { token })).status).toBe(401);
  });
});

describe('access controls', () => {
  test('owners read and change the map; members feel it at once; owner permissions are fixed', async () => {
    const owner = await user('own');
    const ivy = await user('ivy');
    await addMember(owner.token, ivy.name, 'member');
    const headers = { 'x-workspace-id': owner.workspaceId };
    const map = (await (await ts.request('/api/v1/access-controls', { token: owner.token })).json()) as { roles: Record<string, string[]> };
    expect(map.roles.member).toEqual(['run_tests', 'manage_tests', 'manage_machines']);
    expect(map.roles.owner).toContain('manage_billing');

    const machine = () => ts.request('/api/v1/machines', { method: 'POST', token: ivy.token, headers, json: { name: 'm', hostname: `h${crypto.randomUUID().slice(0, 6)}`, ip_address: '10.0.0.1' } });
    expect((await machine()).status).toBe(201);
    const update = await ts.request('/api/v1/access-controls', { method: 'PUT', token: owner.token, json: { roles: { member: ['run_tests', 'manage_tests'] } } });
    expect(update.status).toBe(200);
    expect(((await update.json()) as { roles: Record<string, string[]> }).roles.member).toEqual(['manage_tests', 'run_tests']);
    expect((await machine()).status).toBe(403);

    for (const [body, mentions] of [
      [{ roles: { owner: [] } }, 'owners always hold every permission'],
      [{ roles: { member: ['launch_missiles'] } }, 'unknown permission launch_missiles'],
      [{ roles: { guest: [] } }, 'unknown role "guest"'],
    ] as const) {
      const response = await ts.request('/api/v1/access-controls', { method: 'PUT', token: owner.token, json: body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(mentions);
    }
    const asMember = await ts.request('/api/v1/access-controls', { token: ivy.token, headers });
    expect(asMember.status).toBe(403);
    const log = (await (await ts.request('/api/v1/audit-log?limit=1', { token: owner.token })).json()) as { action: string }[];
    expect(log[0]!.action).toBe('access_controls.updated');
  });
});

describe('plan limits and the audit log', () => {
  test('starter: 2 machines and 25 tests, the next one is 403 with a code naming the limit', async () => {
    const owner = await user('own');
    await ts.request('/api/v1/workspace', { method: 'PATCH', token: owner.token, json: { plan: 'starter' } });
    for (let i = 0; i < 2; i++) {
      const ok = await ts.request('/api/v1/machines', { method: 'POST', token: owner.token, json: { name: 'm', hostname: `m${i}`, ip_address: '10.0.0.1' } });
      expect(ok.status).toBe(201);
    }
    const third = await ts.request('/api/v1/machines', { method: 'POST', token: owner.token, json: { name: 'm', hostname: 'm2', ip_address: '10.0.0.1' } });
    expect(third.status).toBe(403);
    expect(await third.json()).toEqual({ error: 'plan_limit_machines', message: 'the starter plan allows 2 machines' });

    let lastId = '';
    for (let i = 0; i < 25; i++) {
      const ok = await ts.request('/api/v1/tests', { method: 'POST', token: owner.token, json: { name: `t${i}`, tool: 'k6', script: 'export default function () {}' } });
      expect(ok.status).toBe(201);
      lastId = ((await ok.json()) as { id: string }).id;
    }
    const over = await ts.request('/api/v1/tests', { method: 'POST', token: owner.token, json: { name: 'over', tool: 'k6', script: 'export default function () {}' } });
    expect(((await over.json()) as { error: string }).error).toBe('plan_limit_tests');
    // Deleting one frees a slot.
    await ts.request(`/api/v1/tests/${lastId}`, { method: 'DELETE', token: owner.token });
    expect((await ts.request('/api/v1/tests', { method: 'POST', token: owner.token, json: { name: 'fits', tool: 'k6', script: 'export default function () {}' } })).status).toBe(201);
  });

  test('the audit log pages newest first, names actor and target, and needs view_audit_log', async () => {
    const owner = await user('own');
    for (let i = 0; i < 3; i++) {
      await ts.request('/api/v1/machines', { method: 'POST', token: owner.token, json: { name: 'm', hostname: `audit-${i}`, ip_address: '10.0.0.1' } });
    }
    const first = await ts.request('/api/v1/audit-log?limit=2', { token: owner.token });
    const page = (await first.json()) as { action: string; target: { label: string }; actor: { label: string } }[];
    expect(page.map((e) => e.target.label)).toEqual(['audit-2', 'audit-1']);
    expect(page[0]).toMatchObject({ action: 'machine.created', actor: { label: owner.name } });
    const next = await ts.request(`/api/v1/audit-log?limit=2&cursor=${first.headers.get('x-next-cursor')}`, { token: owner.token });
    const rest = (await next.json()) as { target: { label: string } }[];
    expect(rest[0]!.target.label).toBe('audit-0');

    const viewer = await user('viewer');
    await addMember(owner.token, viewer.name, 'viewer');
    const denied = await ts.request('/api/v1/audit-log', { token: viewer.token, headers: { 'x-workspace-id': owner.workspaceId } });
    expect(denied.status).toBe(403);
    // Another workspace's log is not this one's.
    const theirs = (await (await ts.request('/api/v1/audit-log', { token: viewer.token })).json()) as { target: { label: string } }[];
    expect(theirs.some((e) => e.target.label?.startsWith('audit-'))).toBe(false);
  });
});
