import { afterAll, beforeAll, beforeEach, describe, expect, setSystemTime, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
// Each test signs in a user of its own: tokens count against a per-user plan limit.
let owner: string;
let counter = 0;

interface CreatedToken {
  id: string;
  name: string;
  scopes: string[];
  expires_at: string | null;
  last_used_at: string | null;
  token: string;
}

async function createToken(jwt: string, body: Record<string, unknown> = {}) {
  const response = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: 'ci', ...body } });
  return { response, body: (await response.json()) as CreatedToken & { error?: string; message?: string } };
}

beforeAll(async () => {
  ts = await startTestService();
});
beforeEach(async () => {
  owner = await ts.createUser(`owner${++counter}`);
});
afterAll(() => ts.stop());

describe('API tokens', () => {
  test('created once with a psk_ plaintext; lists never show it; it works on the REST API', async () => {
    const { response, body } = await createToken(owner, { name: 'deploy bot' });
    expect(response.status).toBe(201);
    expect(body.token).toMatch(/^psk_[0-9A-Za-z]{46}$/);
    expect(body).toMatchObject({ name: 'deploy bot', scopes: [], expires_at: null, last_used_at: null });

    const list = await ts.request('/api/v1/api-tokens', { token: owner });
    const text = await list.text();
    expect(text).not.toContain(body.token);
    expect(JSON.parse(text).map((t: { id: string }) => t.id)).toContain(body.id);

    const machines = await ts.request('/api/v1/machines', { token: body.token });
    expect(machines.status).toBe(200);
    const me = (await (await ts.request('/api/v1/auth/me', { token: body.token })).json()) as { preferred_username: string };
    expect(me.preferred_username).toBe(`owner${counter}`);
  });

  test('a token acts as its creator in its workspace: what it creates is the creator workspace data', async () => {
    const { body } = await createToken(owner, { name: 'writer' });
    const created = await ts.request('/api/v1/tests', { method: 'POST', token: body.token, json: { name: 'via token', tool: 'custom', script: 'echo' } });
    expect(created.status).toBe(201);
    const listed = (await (await ts.request('/api/v1/tests', { token: owner })).json()) as { name: string }[];
    expect(listed.map((t) => t.name)).toContain('via token');
  });

  test('last_used_at is recorded off the hot path and appears after the flush', async () => {
    const { body } = await createToken(owner, { name: 'used' });
    await ts.request('/api/v1/machines', { token: body.token });
    await ts.service.lastUsed.flush();
    const list = (await (await ts.request('/api/v1/api-tokens', { token: owner })).json()) as CreatedToken[];
    const entry = list.find((t) => t.id === body.id)!;
    expect(entry.last_used_at).not.toBeNull();
    expect(Date.now() - Date.parse(entry.last_used_at!)).toBeLessThan(60_000);
  });

  test('revocation takes effect at once, even with the token cached', async () => {
    const { body } = await createToken(owner, { name: 'revoke me' });
    expect((await ts.request('/api/v1/machines', { token: body.token })).status).toBe(200);
    const revoked = await ts.request(`/api/v1/api-tokens/${body.id}`, { method: 'DELETE', token: owner });
    expect(revoked.status).toBe(204);
    const after = await ts.request('/api/v1/machines', { token: body.token });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: 'unauthorized' });
    expect((await ts.request(`/api/v1/api-tokens/${body.id}`, { method: 'DELETE', token: owner })).status).toBe(404);
  });

  test('rotation: new secret works, the old one stops at once; name, scopes and expiry stay', async () => {
    const expires = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const { body } = await createToken(owner, { name: 'rotating', scopes: ['tests:read'], expires_at: expires });
    expect((await ts.request('/api/v1/tests', { token: body.token })).status).toBe(200);
    const rotated = await ts.request(`/api/v1/api-tokens/${body.id}/rotate`, { method: 'POST', token: owner });
    expect(rotated.status).toBe(200);
    const { id, token } = (await rotated.json()) as { id: string; token: string };
    expect(id).toBe(body.id);
    expect(token).not.toBe(body.token);
    expect((await ts.request('/api/v1/tests', { token: body.token })).status).toBe(401);
    expect((await ts.request('/api/v1/tests', { token })).status).toBe(200);
    expect((await ts.request('/api/v1/machines', { token })).status).toBe(403);
    const listed = ((await (await ts.request('/api/v1/api-tokens', { token: owner })).json()) as CreatedToken[]).find((t) => t.id === id)!;
    expect(listed).toMatchObject({ name: 'rotating', scopes: ['tests:read'], expires_at: expires });
  });

  test('an expired token is 401 token_expired', async () => {
    // An hour to live, then the clock (this process's: the service runs in it) moves past the expiry: no race between a
    // short expiry and a slow machine's first request.
    const expiresAt = Date.now() + 3600_000;
    const { body } = await createToken(owner, { name: 'short', expires_at: new Date(expiresAt).toISOString() });
    expect((await ts.request('/api/v1/machines', { token: body.token })).status).toBe(200);
    setSystemTime(new Date(expiresAt + 1000));
    try {
      const response = await ts.request('/api/v1/machines', { token: body.token });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'token_expired', message: 'API token expired' });
    } finally {
      setSystemTime();
    }
  });

  test('a mistyped token fails the checksum without a lookup; an unknown well-formed one is 401', async () => {
    const { body } = await createToken(owner, { name: 'typo' });
    const typo = `${body.token.slice(0, 10)}${body.token[10] === 'a' ? 'b' : 'a'}${body.token.slice(11)}`;
    const response = await ts.request('/api/v1/machines', { token: typo });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toContain('checksum');
  });

  test.each([
    [{ scopes: ['tests:admin'] }, 'unknown scope "tests:admin"'],
    [{ expires_at: '2020-01-01T00:00:00Z' }, 'expires_at must be in the future'],
    [{ expires_at: 'tomorrow' }, 'expires_at must be an ISO 8601 timestamp'],
    [{ expires_at: '2999-01-01T00:00:00Z' }, 'at most 5 years'],
    [{ name: '' }, 'name'],
    [{ name: ' ' }, 'name must not be blank'],
    [{ token: 'psk_mine' }, 'token'],
  ])('bad token request %p is 400', async (body, mentions) => {
    const { response, body: answer } = await createToken(owner, body);
    expect(response.status).toBe(400);
    expect(answer.message).toContain(mentions);
  });

  test('a scoped token never manages tokens, members or access controls', async () => {
    const { body } = await createToken(owner, { name: 'all scopes', scopes: ['tests:read', 'tests:write', 'runs:read', 'runs:write', 'machines:read', 'machines:write', 'metrics:read'] });
    for (const [method, path] of [
      ['GET', '/api/v1/api-tokens'],
      ['POST', '/api/v1/api-tokens'],
      ['GET', '/api/v1/members'],
      ['GET', '/api/v1/access-controls'],
      ['PATCH', '/api/v1/workspace'],
    ] as const) {
      const response = await ts.request(path, { method, token: body.token, json: method === 'GET' ? undefined : { name: 'x' } });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe('insufficient_scope');
    }
  });

  test('plan limits: enterprise 5 per user, scale 1, starter none (and its tokens stop working)', async () => {
    const jwt = await ts.createUser('limits');
    for (let i = 0; i < 5; i++) expect((await createToken(jwt, { name: `t${i}` })).response.status).toBe(201);
    const sixth = await createToken(jwt, { name: 't5' });
    expect(sixth.response.status).toBe(403);
    expect(sixth.body.error).toBe('plan_limit_api_tokens');

    const scaleUser = await ts.createUser('scaler');
    expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token: scaleUser, json: { plan: 'scale' } })).status).toBe(200);
    const first = await createToken(scaleUser, { name: 'one' });
    expect(first.response.status).toBe(201);
    expect((await createToken(scaleUser, { name: 'two' })).body.error).toBe('plan_limit_api_tokens');
    // Revoking frees the slot.
    await ts.request(`/api/v1/api-tokens/${first.body.id}`, { method: 'DELETE', token: scaleUser });
    const again = await createToken(scaleUser, { name: 'again' });
    expect(again.response.status).toBe(201);

    expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token: scaleUser, json: { plan: 'starter' } })).status).toBe(200);
    const starter = await createToken(scaleUser, { name: 'none' });
    expect(starter.response.status).toBe(403);
    expect(starter.body).toMatchObject({ error: 'plan_limit_api_tokens', message: 'the starter plan includes no API access' });
    const existing = await ts.request('/api/v1/machines', { token: again.body.token });
    expect(existing.status).toBe(403);
    expect(((await existing.json()) as { error: string }).error).toBe('plan_no_api_access');
  });

  test("tokens stay in their workspace: another workspace's ids are 404, X-Workspace-Id elsewhere is 404", async () => {
    const otherJwt = await ts.createUser('other');
    const machine = await ts.request('/api/v1/machines', { method: 'POST', token: otherJwt, json: { name: 'm', hostname: 'other-host', ip_address: '10.1.1.1' } });
    const { id: machineId } = (await machine.json()) as { id: string };
    const workspace = (await (await ts.request('/api/v1/workspace', { token: otherJwt })).json()) as { id: string };

    const { body } = await createToken(owner, { name: 'cross' });
    expect((await ts.request(`/api/v1/machines/${machineId}`, { method: 'DELETE', token: body.token })).status).toBe(404);
    const foreign = await ts.request('/api/v1/machines', { token: body.token, headers: { 'x-workspace-id': workspace.id } });
    expect(foreign.status).toBe(404);
    const theirs = (await (await ts.request('/api/v1/machines', { token: otherJwt })).json()) as { id: string }[];
    expect(theirs.map((m) => m.id)).toContain(machineId);
  });

  test('creation, rotation and revocation are in the audit log with the actor', async () => {
    const { body } = await createToken(owner, { name: 'audited' });
    await ts.request(`/api/v1/api-tokens/${body.id}/rotate`, { method: 'POST', token: owner });
    await ts.request(`/api/v1/api-tokens/${body.id}`, { method: 'DELETE', token: owner });
    const log = (await (await ts.request('/api/v1/audit-log?limit=3', { token: owner })).json()) as {
      action: string;
      actor: { type: string; label: string };
      target: { id: string; label: string };
    }[];
    expect(log.map((e) => e.action)).toEqual(['api_token.revoked', 'api_token.rotated', 'api_token.created']);
    expect(log.every((e) => e.target.id === body.id && e.target.label === 'audited')).toBe(true);
    expect(log[0]!.actor).toMatchObject({ type: 'user', label: `owner${counter}` });
    expect(JSON.stringify(log)).not.toContain('psk_');
  });
});
