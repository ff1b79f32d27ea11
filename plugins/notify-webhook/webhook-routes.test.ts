import { inviteAndAccept } from '../../tests/helpers/invitations.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { sqlOf } from 'loadplane/plugin';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';

let ts: TestService;
let owner: string;
let counter = 0;

interface Webhook {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  secret?: string;
  error?: string;
  message?: string;
}

async function create(token: string, body: Record<string, unknown>) {
  const response = await ts.request('/api/v1/webhooks', { method: 'POST', token, json: body });
  return { response, body: (await response.json()) as Webhook };
}

beforeAll(async () => {
  // The delivery worker is off: these tests read the deliveries' states without a worker racing them.
  ts = await startTestService({
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost' },
    boot: { pluginConfigOverrides: { 'identity-embedded': { passwordIterations: 1000 }, 'notify-webhook': { workers: false } } },
  });
});
beforeEach(async () => {
  owner = await ts.createUser(`hookowner${++counter}`);
});
afterAll(() => ts.stop());

describe('webhooks: happy paths', () => {
  test('created with a whsec_ secret shown once; read, listed, changed and deleted; the secret is stored sealed', async () => {
    const { response, body } = await create(owner, {
      url: 'http://127.0.0.1:9/hook',
      events: ['test.failed', 'test.started'],
      description: ' CI alerts ',
    });
    expect(response.status).toBe(201);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['test.started', 'test.failed'], description: 'CI alerts', enabled: true });

    const one = await ts.request(`/api/v1/webhooks/${body.id}`, { token: owner });
    expect(one.status).toBe(200);
    const oneText = await one.text();
    expect(oneText).not.toContain(body.secret!);
    expect(JSON.parse(oneText)).not.toHaveProperty('secret');
    const list = await ts.request('/api/v1/webhooks', { token: owner });
    const listText = await list.text();
    expect(listText).not.toContain(body.secret!);
    expect((JSON.parse(listText) as Webhook[]).map((w) => w.id)).toEqual([body.id]);

    const [stored] = await sqlOf(ts.service.database).all<{ secret_box: string }>('select secret_box from webhooks where id = ?', [body.id]);
    expect(stored!.secret_box).toStartWith('v1.');
    expect(stored!.secret_box).not.toContain(body.secret!.slice(6));

    const patched = await ts.request(`/api/v1/webhooks/${body.id}`, {
      method: 'PATCH',
      token: owner,
      json: { enabled: false, events: ['test.completed'], url: 'http://localhost:9/x', description: null },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ enabled: false, events: ['test.completed'], url: 'http://localhost:9/x', description: null });

    const deleted = await ts.request(`/api/v1/webhooks/${body.id}`, { method: 'DELETE', token: owner });
    expect(deleted.status).toBe(204);
    expect((await ts.request(`/api/v1/webhooks/${body.id}`, { token: owner })).status).toBe(404);

    const audit = (await (await ts.request('/api/v1/audit-log', { token: owner })).json()) as { action: string; target: { id: string } }[];
    expect(audit.filter((entry) => entry.target.id === body.id).map((entry) => entry.action)).toEqual([
      'webhook.deleted',
      'webhook.updated',
      'webhook.created',
    ]);
  });

  test('rotate-secret answers a new secret once, audit-logged', async () => {
    const { body } = await create(owner, { url: 'http://127.0.0.1:9/hook', events: ['test.started'] });
    const rotated = await ts.request(`/api/v1/webhooks/${body.id}/rotate`, { method: 'POST', token: owner });
    expect(rotated.status).toBe(200);
    const { id, secret } = (await rotated.json()) as { id: string; secret: string };
    expect(id).toBe(body.id);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(body.secret!);
    const view = (await (await ts.request(`/api/v1/webhooks/${body.id}`, { token: owner })).json()) as { secret_rotated_at: string | null };
    expect(view.secret_rotated_at).not.toBeNull();
    const audit = (await (await ts.request('/api/v1/audit-log', { token: owner })).json()) as { action: string }[];
    expect(audit[0]!.action).toBe('webhook.secret_rotated');
  });

  test('test queues a test.ping (202) that shows in the delivery history; redelivery waits for it to finish', async () => {
    const { body } = await create(owner, { url: 'http://127.0.0.1:9/hook', events: ['test.completed'] });
    const ping = await ts.request(`/api/v1/webhooks/${body.id}/test`, { method: 'POST', token: owner });
    expect(ping.status).toBe(202);
    const delivery = (await ping.json()) as { id: string; event: string; state: string; envelope: { id: string; event: string; tenant_id: string } };
    expect(delivery).toMatchObject({ event: 'test.ping', envelope: { event: 'test.ping' } });
    const history = (await (await ts.request(`/api/v1/webhooks/${body.id}/deliveries`, { token: owner })).json()) as { id: string }[];
    expect(history.map((d) => d.id)).toEqual([delivery.id]);

    // Make it finished, as if the five attempts had failed, then redeliver: a new delivery with the same envelope.
    await sqlOf(ts.service.database).all("update webhook_deliveries set state = 'failed', next_attempt_at = null where id = ?", [delivery.id]);
    const again = await ts.request(`/api/v1/webhooks/${body.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST', token: owner });
    expect(again.status).toBe(202);
    const copy = (await again.json()) as { id: string; redelivery_of: string; state: string; envelope: { id: string } };
    expect(copy).toMatchObject({ redelivery_of: delivery.id, state: 'waiting', envelope: { id: delivery.envelope.id } });
    expect(copy.id).not.toBe(delivery.id);
    // The copy is waiting: redelivering it now is a conflict.
    const conflict = await ts.request(`/api/v1/webhooks/${body.id}/deliveries/${copy.id}/redeliver`, { method: 'POST', token: owner });
    expect(conflict.status).toBe(409);
  });

  test('lists are paged newest first with Link and X-Next-Cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(owner, { url: `http://127.0.0.1:9/h${i}`, events: ['test.started'] })).body.id);
    const first = await ts.request('/api/v1/webhooks?limit=2', { token: owner });
    expect(((await first.json()) as Webhook[]).map((w) => w.id)).toEqual([ids[2]!, ids[1]!]);
    const cursor = first.headers.get('x-next-cursor')!;
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await ts.request(`/api/v1/webhooks?limit=2&cursor=${cursor}`, { token: owner });
    expect(((await second.json()) as Webhook[]).map((w) => w.id)).toEqual([ids[0]!]);
    expect(second.headers.get('x-next-cursor')).toBeNull();
  });
});

describe('webhooks: errors', () => {
  test('refused targets are a 400 naming the reason, at creation and at update', async () => {
    const cases: Array<[string, string]> = [
      ['http://10.0.0.5/hook', 'private (10.0.0.0/8)'],
      ['http://169.254.169.254/latest', 'metadata'],
      ['http://[::1]:8080/', 'loopback (::1)'],
      ['http://0x0a000001/', 'private (10.0.0.0/8)'],
      ['http://127.0.0.2/', 'loopback'],
      ['ftp://127.0.0.1/', 'http or https'],
      ['not a url', 'not a valid absolute URL'],
    ];
    for (const [url, reason] of cases) {
      const { response, body } = await create(owner, { url, events: ['test.started'] });
      expect(response.status).toBe(400);
      expect(body.error).toBe('bad_request');
      expect(body.message).toContain(reason);
    }
    const { body } = await create(owner, { url: 'http://127.0.0.1:9/ok', events: ['test.started'] });
    const patched = await ts.request(`/api/v1/webhooks/${body.id}`, { method: 'PATCH', token: owner, json: { url: 'http://192.168.1.1/' } });
    expect(patched.status).toBe(400);
    expect(((await patched.json()) as { message: string }).message).toContain('192.168.0.0/16');
  });

  test('events must be a non-empty subset of the three; unknown fields are refused', async () => {
    const unknown = await create(owner, { url: 'http://127.0.0.1:9/', events: ['test.deleted'] });
    expect(unknown.response.status).toBe(400);
    expect(unknown.body.message).toContain('test.deleted');
    expect((await create(owner, { url: 'http://127.0.0.1:9/', events: [] })).response.status).toBe(400);
    expect((await create(owner, { url: 'http://127.0.0.1:9/' })).response.status).toBe(400);
    expect((await create(owner, { url: 'http://127.0.0.1:9/', events: ['test.started'], secret: 'mine' })).response.status).toBe(400);
  });
});

describe('webhooks: security', () => {
  test('another workspace sees 404 for every route of a foreign webhook', async () => {
    const { body } = await create(owner, { url: 'http://127.0.0.1:9/hook', events: ['test.started'] });
    const other = await ts.createUser(`hookstranger${counter}`);
    const paths: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/webhooks/${body.id}`],
      ['PATCH', `/api/v1/webhooks/${body.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhooks/${body.id}`],
      ['POST', `/api/v1/webhooks/${body.id}/rotate`],
      ['POST', `/api/v1/webhooks/${body.id}/test`],
      ['GET', `/api/v1/webhooks/${body.id}/deliveries`],
    ];
    for (const [method, path, json] of paths) {
      const response = await ts.request(path, { method, token: other, ...(json ? { json } : {}) });
      expect(`${method} ${path} ${response.status}`).toBe(`${method} ${path} 404`);
    }
    expect(await (await ts.request('/api/v1/webhooks', { token: other })).json()).toEqual([]);
    expect((await ts.request('/api/v1/webhooks/not-a-uuid', { token: owner })).status).toBe(404);
  });

  test('manage_webhooks is needed: a member gets 403, and scoped API tokens cannot manage webhooks', async () => {
    const memberName = `hookmember${counter}`;
    const memberJwt = await ts.createUser(memberName);
    await ts.request('/api/v1/auth/me', { token: memberJwt }); // the first sign-in makes them known
    const workspace = (await (await ts.request('/api/v1/workspace', { token: owner })).json()) as { id: string };
    const added = await inviteAndAccept(ts, owner, memberName, 'member', memberJwt);
    expect(added.invited.status).toBe(201);
    const asMember = await ts.request('/api/v1/webhooks', { token: memberJwt, headers: { 'x-workspace-id': workspace.id } });
    expect(asMember.status).toBe(403);
    expect(((await asMember.json()) as { message: string }).message).toContain('manage_webhooks');

    const scoped = await ts.request('/api/v1/api-tokens', { method: 'POST', token: owner, json: { name: 'ro', scopes: ['runs:read'] } });
    const { token } = (await scoped.json()) as { token: string };
    expect((await ts.request('/api/v1/webhooks', { token })).status).toBe(403);
  });
});
