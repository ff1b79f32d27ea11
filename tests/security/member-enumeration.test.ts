/**
 * An attacker who owns a workspace probes POST /members over a real socket for users of the instance: patterns (`%`, `a%`,
 * `_`), a stranger's unverified e-mail, a service account, an ambiguous handle. Every probe must get exactly the answer
 * a name that exists nowhere gets; an invitable stranger learns nothing of them either until they accept.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { provisionLocalAgentToken } from '../../core/services/runs/local-agent-account.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let base: string;
let attacker: string;
let stranger: string;
let verifiedStranger: string;

interface Answer {
  status: number;
  contentType: string | null;
  body: unknown;
}

async function http(path: string, token: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
}

async function invite(user: string): Promise<Answer> {
  const response = await http('/api/v1/members', attacker, { method: 'POST', json: { user, role: 'member' } });
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.json() };
}

/** A user who has signed in once (so a profile exists) and owns a workspace of their own. */
async function signedIn(username: string, options: { email?: string; emailVerified?: boolean } = {}) {
  const token = await ts.createUser(username, options);
  expect((await http('/api/v1/auth/me', token)).status).toBe(200);
  return token;
}

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  base = await ts.listen();
  attacker = await signedIn('mallory');
  // Users the old ILIKE search would have found with patterns: names starting with "a", a one-letter name, "alice".
  await signedIn('alice', { email: 'alice@example.test', emailVerified: false });
  await signedIn('q');
  stranger = await signedIn('victor', { email: 'victor.private@example.test', emailVerified: false });
  verifiedStranger = await signedIn('wendy', { email: 'Wendy.Verified@example.test', emailVerified: true });
  // Two people answer to one handle: one's username is the other's verified e-mail.
  await signedIn('twin@example.test', { email: 'twin-one@example.test' });
  await signedIn('twin2', { email: 'twin@example.test', emailVerified: true });
  // The embedded local agent's service account of the first workspace.
  await provisionLocalAgentToken(ts.service.database, ts.service.bootstrapWorkspaceId);
}, 120_000);
afterAll(() => ts.stop());

describe('POST /members tells the attacker nothing about users outside the workspace', () => {
  test('patterns, an unverified e-mail, a service account and an ambiguous handle answer exactly like a nobody', async () => {
    const nobody = await invite('no-such-user-anywhere');
    expect(nobody.status).toBe(404);
    expect(nobody.body).toMatchObject({ error: 'not_found' });
    // The message is one constant: it does not even echo the handle back.
    expect(JSON.stringify(nobody.body)).not.toContain('no-such-user-anywhere');

    const probes = [
      '%',
      'a%',
      '%a%',
      '_',
      '__',
      'al_ce',
      'ALICE%',
      '%@example.test',
      'victor.private@example.test',
      'VICTOR.PRIVATE@EXAMPLE.TEST',
      'alice@example.test',
      'local-agent',
      'twin@example.test',
      'wendy\\',
      'wendy%',
      ` ${'x'.repeat(400)}`,
    ];
    for (const probe of probes) {
      expect(await invite(probe), probe).toEqual(nobody);
    }
    // Nothing was created by any probe.
    const pending = await http('/api/v1/members/invitations', attacker);
    expect(await pending.json()).toEqual([]);
    const members = (await (await http('/api/v1/members', attacker)).json()) as { username: string }[];
    expect(members.map((m) => m.username)).toEqual(['mallory']);
  });

  test('the stranger with the unverified e-mail is invitable by exact username only, and nothing of them shows until they accept', async () => {
    const byName = await invite('Victor');
    expect(byName.status).toBe(201);
    // Only what the attacker typed comes back: no user id, no e-mail, no name.
    expect(byName.body).toEqual({ id: expect.any(String), user: 'Victor', role: 'member', status: 'pending', invited_at: expect.any(String), expires_at: expect.any(String) });
    const pending = (await (await http('/api/v1/members/invitations', attacker)).json()) as unknown[];
    expect(pending).toEqual([byName.body]);
    const listed = JSON.stringify(await (await http('/api/v1/members', attacker)).json());
    expect(listed).not.toContain('victor');
    // A pending invitation is not a membership: the attacker cannot change or remove what is not there.
    const audit = JSON.stringify(await (await http('/api/v1/audit-log', attacker)).json());
    expect(audit).not.toContain('victor.private');

    // Victor sees the workspace that asks, and says no.
    const received = (await (await http('/api/v1/auth/me/invitations', stranger)).json()) as { id: string; workspace: { name: string }; invited_by: string }[];
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ role: 'member', invited_by: 'mallory' });
    expect((await http(`/api/v1/auth/me/invitations/${received[0]!.id}`, stranger, { method: 'DELETE' })).status).toBe(204);
    expect(await (await http('/api/v1/members/invitations', attacker)).json()).toEqual([]);
  });

  test('a verified e-mail of a stranger in another workspace finds them case-insensitively; they join only by accepting', async () => {
    const byEmail = await invite('wendy.verified@EXAMPLE.test');
    expect(byEmail.status).toBe(201);
    expect(byEmail.body).toEqual({ id: expect.any(String), user: 'wendy.verified@EXAMPLE.test', role: 'member', status: 'pending', invited_at: expect.any(String), expires_at: expect.any(String) });
    expect(JSON.stringify(await (await http('/api/v1/members', attacker)).json())).not.toContain('wendy');
    // Inviting again is a conflict about the attacker's own invitation list, not about the stranger.
    expect((await invite('wendy')).status).toBe(409);

    const [invitation] = (await (await http('/api/v1/auth/me/invitations', verifiedStranger)).json()) as { id: string }[];
    // Nobody else can accept it, not even the attacker who made it.
    expect((await http(`/api/v1/auth/me/invitations/${invitation!.id}/accept`, attacker, { method: 'POST' })).status).toBe(404);
    const accepted = await http(`/api/v1/auth/me/invitations/${invitation!.id}/accept`, verifiedStranger, { method: 'POST' });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ role: 'member' });
    const members = (await (await http('/api/v1/members', attacker)).json()) as { username: string }[];
    expect(members.map((m) => m.username)).toEqual(['mallory', 'wendy']);
    // A member is inside the workspace: saying "already a member" tells nothing about anyone outside it.
    expect((await invite('wendy')).status).toBe(409);
  });
});
