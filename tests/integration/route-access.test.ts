/** Walks every registered /api/v1 route and proves its access check: scope, role, and dead tokens. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { policyKey } from '../../core/http/route-policy.ts';
import { scopes } from '../../core/domain/scopes.ts';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let ownerJwt: string;
const tokens: Record<string, string> = {};
let revoked: string;
let rotatedAway: string;
let expired: string;
let viewerJwt: string;

const allRoutes = () =>
  ts.service.app.routes
    .filter((route) => route.path.startsWith('/api/v1'))
    .map((route) => ({ method: route.method, path: route.path, key: policyKey(route.method, route.path) }));
// WebSocket routes need a real socket for the upgrade; tests/integration/task-streams.test.ts checks their refusals.
const routes = () => allRoutes().filter((route) => route.method !== 'WS');

const concrete = (path: string) => path.replace(/:\w+/g, () => crypto.randomUUID());

async function call(method: string, path: string, token: string) {
  const body = ['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined;
  return ts.request(concrete(path), { method, token, json: body });
}

async function createToken(body: Record<string, unknown>) {
  const response = await ts.request('/api/v1/api-tokens', { method: 'POST', token: ownerJwt, json: body });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; token: string };
}

beforeAll(async () => {
  ts = await startTestService();
  ownerJwt = await ts.createUser('walker');
  // Tokens per plan limit: the enterprise plan allows 5 per user, so spread them over users of one workspace.
  for (const scope of scopes) {
    const jwt = await ts.createUser(`scoped-${scope.replace(':', '-')}`);
    const created = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: scope, scopes: [scope] } });
    tokens[scope] = ((await created.json()) as { token: string }).token;
  }
  tokens.full = (await createToken({ name: 'full' })).token;
  const toRevoke = await createToken({ name: 'revoked' });
  await ts.request(`/api/v1/api-tokens/${toRevoke.id}`, { method: 'DELETE', token: ownerJwt });
  revoked = toRevoke.token;
  const toRotate = await createToken({ name: 'rotated' });
  await ts.request(`/api/v1/api-tokens/${toRotate.id}/rotate`, { method: 'POST', token: ownerJwt });
  rotatedAway = toRotate.token;
  expired = (await createToken({ name: 'expiring', expires_at: new Date(Date.now() + 1000).toISOString() })).token;
  viewerJwt = await ts.createUser('viewer');
}, 120_000);
afterAll(() => ts.stop());

describe('every /api/v1 route', () => {
  test('has exactly one declared access policy (no route escapes the check)', () => {
    const keys = allRoutes().map((route) => route.key);
    expect(keys.length).toBe(Object.keys(ts.service.routePolicies).length);
    for (const key of keys) expect(ts.service.routePolicies[key], key).toBeDefined();
  });

  test('answers 401 to a revoked, an expired and a rotated-away token, and to none', async () => {
    await Bun.sleep(1100);
    for (const route of routes()) {
      for (const [label, token] of [['revoked', revoked], ['rotated away', rotatedAway], ['expired', expired]] as const) {
        const response = await call(route.method, route.path, token);
        expect(response.status, `${route.key} with a ${label} token`).toBe(401);
      }
      const anonymous = await ts.request(concrete(route.path), { method: route.method });
      expect(anonymous.status, `${route.key} without a token`).toBe(401);
    }
  });

  test('is reachable with its scope, 403 insufficient_scope without it; scope-less routes refuse scoped tokens', async () => {
    for (const route of routes()) {
      const policy = ts.service.routePolicies[route.key]!;
      for (const scope of scopes) {
        const response = await call(route.method, route.path, tokens[scope]!);
        // One scope, or one of several (the OTLP receiver takes metrics:read or runs:write); a list needs all of its scopes.
        const allowed = policy.scope === 'any' || policy.scope === scope || (typeof policy.scope === 'object' && policy.scope !== null && 'anyOf' in policy.scope && policy.scope.anyOf.includes(scope));
        if (allowed) {
          expect([401, 403], `${route.key} with ${scope}`).not.toContain(response.status);
        } else {
          expect(response.status, `${route.key} with ${scope}`).toBe(403);
          expect(((await response.json()) as { error: string }).error).toBe('insufficient_scope');
        }
      }
      // An unscoped token and the owner's JWT carry the role's full rights.
      for (const [label, token] of [['full token', tokens.full!], ['owner JWT', ownerJwt]] as const) {
        const response = await call(route.method, route.path, token);
        expect([401, 403], `${route.key} with the ${label}`).not.toContain(response.status);
      }
    }
  });

  test("is refused by role where it needs a permission or ownership the caller's role lacks", async () => {
    // viewer signs in to a workspace of their own as owner; add them to walker's workspace as viewer and act there.
    await ts.request('/api/v1/auth/me', { token: viewerJwt });
    const { invited } = await inviteAndAccept(ts, ownerJwt, 'viewer', 'viewer', viewerJwt);
    expect(invited.status).toBe(201);
    const workspace = (await (await ts.request('/api/v1/workspace', { token: ownerJwt })).json()) as { id: string };
    for (const route of routes()) {
      const policy = ts.service.routePolicies[route.key]!;
      const response = await ts.request(concrete(route.path), {
        method: route.method,
        token: viewerJwt,
        headers: { 'x-workspace-id': workspace.id },
        json: ['POST', 'PATCH', 'PUT'].includes(route.method) ? {} : undefined,
      });
      if (policy.permission || policy.ownerOnly) {
        expect(response.status, `${route.key} as viewer`).toBe(403);
        expect(((await response.json()) as { error: string }).error).toBe('forbidden');
      } else {
        expect([401, 403], `${route.key} as viewer`).not.toContain(response.status);
      }
    }
  });
});
