import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia, t } from 'elysia';
import { apiRoutesCapability, type ApiRoutes } from '../capabilities/api-routes.ts';
import { definePlugin } from '../kernel/define-plugin.ts';
import { KernelBootError } from '../kernel/errors.ts';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';
import { buildPluginApiRoutes, mergeRoutePolicies } from './plugin-api-routes.ts';
import { routePolicies } from './route-policy.ts';
import { bearerSecurity, errorResponses } from './schemas/common.ts';

const widgets = (policies: ApiRoutes['policies'] = {
  'GET /api/v1/widgets': { scope: 'tests:read' },
  'POST /api/v1/widgets': { scope: 'tests:write', permission: 'manage_tests' },
}): ApiRoutes => ({
  name: 'widgets',
  policies,
  routes: (kit) =>
    new Elysia({ normalize: false, prefix: '/widgets', detail: { tags: ['Widgets'], security: bearerSecurity } })
      .use(kit.requireCaller())
      .get('', ({ caller }) => ({ workspace: caller.workspace.workspaceId, role: caller.workspace.role }), {
        response: { 200: t.Object({ workspace: t.String(), role: t.String() }), 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: "A plugin's own resource" },
      })
      .post('', ({ body, set }) => {
        set.status = 201;
        return { name: body.name };
      }, {
        body: t.Object({ name: t.String({ minLength: 1 }) }, { additionalProperties: false }),
        response: { 201: t.Object({ name: t.String() }), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Make a widget' },
      }),
});

describe('mergeRoutePolicies and buildPluginApiRoutes', () => {
  test("a plugin's policies join core's; one core or another plugin declares already fails the boot, naming the plugin", () => {
    const merged = mergeRoutePolicies(routePolicies, [widgets()]);
    expect(merged['GET /api/v1/widgets']).toEqual({ scope: 'tests:read' });
    expect(merged['GET /api/v1/tests']).toBe(routePolicies['GET /api/v1/tests']!);
    expect(() => mergeRoutePolicies(routePolicies, [widgets({ 'GET /api/v1/tests': { scope: 'any' } })])).toThrow(
      new KernelBootError("plugin widgets: GET /api/v1/tests already has an access policy (core's)"),
    );
    expect(() => mergeRoutePolicies(routePolicies, [widgets(), { ...widgets(), name: 'gadgets' }])).toThrow(/plugin gadgets: GET \/api\/v1\/widgets already has an access policy \(another plugin's\)/);
    expect(() => mergeRoutePolicies(routePolicies, [widgets({ 'GET /widgets': { scope: 'any' } })])).toThrow(/plugin widgets: the policy key "GET \/widgets" is not "METHOD \/api\/v1\/path"/);
  });

  test('a route of the plugin without its own policy fails the boot (fail closed)', () => {
    const kit = { requireCaller: () => new Elysia() as never };
    expect(() => buildPluginApiRoutes([widgets({ 'GET /api/v1/widgets': { scope: 'tests:read' } })], kit)).toThrow(
      new KernelBootError('plugin widgets: its route POST /api/v1/widgets declares no access policy'),
    );
    expect(buildPluginApiRoutes([widgets()], kit)).toHaveLength(1);
  });
});

describe("a plugin's API routes in a running service", () => {
  let ts: TestService;
  let owner: string;
  beforeAll(async () => {
    const plugin = definePlugin({
      name: 'widgets',
      setup(ctx) {
        ctx.provide(apiRoutesCapability, widgets());
      },
    });
    ts = await startTestService({ boot: { extraPlugins: [plugin] } });
    owner = await ts.createUser('widget-owner');
  }, 180_000);
  afterAll(() => ts?.stop());

  test('answer 401 without a token, and the caller with one', async () => {
    const anonymous = await ts.request('/api/v1/widgets');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('unauthorized');
    const mine = await ts.request('/api/v1/widgets', { token: owner });
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { role: string }).role).toBe('owner');
  });

  test("enforce the route's policy: a token without the scope is refused, one with it passes", async () => {
    const { token: reader } = await ts.apiToken('widget-reader', ['tests:read']);
    expect((await ts.request('/api/v1/widgets', { token: reader })).status).toBe(200);
    const refused = await ts.request('/api/v1/widgets', { method: 'POST', token: reader, json: { name: 'w' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
    const { token: writer } = await ts.apiToken('widget-writer', ['tests:write']);
    expect((await ts.request('/api/v1/widgets', { method: 'POST', token: writer, json: { name: 'w' } })).status).toBe(201);
  });

  test("read their bodies as core's routes do: validation as 400 {error, message}, a body that is not JSON as 415", async () => {
    const invalid = await ts.request('/api/v1/widgets', { method: 'POST', token: owner, json: { name: '', extra: 1 } });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toBe('bad_request');
    const text = await ts.request('/api/v1/widgets', { method: 'POST', token: owner, body: 'name=w', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  test('are in the OpenAPI document, with the bearer token, and in the service\'s policies', async () => {
    const doc = (await (await ts.request('/swagger-ui/openapi.json')).json()) as { paths: Record<string, Record<string, { security: unknown[]; tags: string[] }>> };
    expect(doc.paths['/api/v1/widgets']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/widgets']?.post?.tags).toEqual(['Widgets']);
    expect(ts.service.routePolicies['POST /api/v1/widgets']).toEqual({ scope: 'tests:write', permission: 'manage_tests' });
  });
});
