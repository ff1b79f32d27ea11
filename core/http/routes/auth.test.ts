import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { adminPassword, startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;

beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('GET /auth/me', () => {
  test('answers the identity from the token, roles from realm_access', async () => {
    const token = await ts.createUser('carol', { roles: ['user', 'qa'], email: 'carol@example.test' });
    const response = await ts.request('/api/v1/auth/me', { token });
    expect(response.status).toBe(200);
    const me = (await response.json()) as Record<string, unknown>;
    expect(me).toMatchObject({ email: 'carol@example.test', preferred_username: 'carol', name: 'carol Tester' });
    expect(me.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(me.roles).toEqual(expect.arrayContaining(['user', 'qa']));
  });

  test('the bootstrap admin carries the admin realm role', async () => {
    const token = await ts.tokenFor('admin', adminPassword);
    const me = (await (await ts.request('/api/v1/auth/me', { token })).json()) as { roles: string[] };
    expect(me.roles).toContain('admin');
  });

  test('missing, malformed and tampered tokens are 401 with the error body', async () => {
    const token = await ts.createUser('dave');
    const [header, payload, signature] = token.split('.');
    const forged = JSON.parse(atob(payload!.replaceAll('-', '+').replaceAll('_', '/')));
    forged.realm_access = { roles: ['admin'] };
    const tampered = `${header}.${btoa(JSON.stringify(forged)).replaceAll('=', '')}.${signature}`;
    for (const authorization of [undefined, 'Bearer', 'Bearer garbage', `Bearer ${tampered}`, `Token ${token}`]) {
      const response = await ts.request('/api/v1/auth/me', { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe('unauthorized');
      expect(body.message.length).toBeGreaterThan(0);
    }
  });
});

describe('workspaces', () => {
  test('a first sign-in gets a workspace of its own; X-Workspace-Id of a foreign workspace is 404', async () => {
    const erin = await ts.createUser('erin');
    const frank = await ts.createUser('frank');
    const create = await ts.request('/api/v1/tests', {
      method: 'POST',
      token: erin,
      json: { name: 'erin test', tool: 'custom', script: 'echo hi' },
    });
    expect(create.status).toBe(201);
    const frankTests = (await (await ts.request('/api/v1/tests', { token: frank })).json()) as unknown[];
    expect(frankTests).toEqual([]);

    const erinWorkspace = await ts.service.database
      .fork()
      .getConnection()
      .execute(
        `select m.workspace_id from memberships m join user_profiles u on u.id = m.user_id where u.username = 'erin'`,
      );
    const workspaceId = (erinWorkspace[0] as { workspace_id: string }).workspace_id;
    const own = await ts.request('/api/v1/tests', { token: erin, headers: { 'x-workspace-id': workspaceId } });
    expect(own.status).toBe(200);
    for (const header of [workspaceId, crypto.randomUUID(), 'nonsense']) {
      const foreign = await ts.request('/api/v1/tests', { token: header === workspaceId ? frank : erin, headers: { 'x-workspace-id': header } });
      if (header === workspaceId) {
        expect(foreign.status).toBe(404);
        expect(((await foreign.json()) as { error: string }).error).toBe('not_found');
      } else {
        expect(foreign.status).toBe(404);
      }
    }
  });

  test('the bootstrap admin owns the first workspace, on plan enterprise', async () => {
    const token = await ts.tokenFor('admin', adminPassword);
    await ts.request('/api/v1/auth/me', { token });
    const rows = await ts.service.database
      .fork()
      .getConnection()
      .execute(
        `select w.plan, w.is_bootstrap, m.role from workspaces w join memberships m on m.workspace_id = w.id
         join user_profiles u on u.id = m.user_id where u.username = 'admin'`,
      );
    expect(rows).toEqual([{ plan: 'enterprise', is_bootstrap: true, role: 'owner' }]);
    expect(ts.service.bootstrapWorkspaceId).toBeTruthy();
  });
});
