/**
 * What a plugin built against the published kit gets from a service, without core's tables, ORM or web framework:
 * its own tables from plain-SQL migrations, REST endpoints declared as data with web-standard handlers (served with
 * core's authentication, policies, body reader and OpenAPI document), and the run outbox read under its own cursor
 * into its own table, through the SQL database port. Boot errors name the plugin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { type ApiEndpoint, apiEndpointsCapability, type ApiEndpoints } from '../capabilities/api-endpoints.ts';
import { notificationChannelCapability } from '../capabilities/notification-channel.ts';
import { pluginMigrations } from '../domain/migrations/plugin-migrations.ts';
import { definePlugin } from '../kernel/define-plugin.ts';
import { badRequest, KernelBootError, notFound } from '../kernel/errors.ts';
import { coalescingPass } from '../kernel/coalescing-pass.ts';
import { outboxFeedPort } from '../ports/outbox-feed.ts';
import { sqlDatabasePort } from '../ports/sql-database.ts';
import { sqlOf } from '../services/sql.ts';
import { waitFor } from '../../tests/helpers/process-probes.ts';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';
import { endpointRoutes } from './plugin-api-endpoints.ts';

const Note = Type.Object({ id: Type.String(), text: Type.String(), created_by: Type.String() }, { title: 'KitNote' });

const notesPlugin = definePlugin({
  name: 'notes-kit',
  sqlMigrations: [
    {
      name: 'notes-kit-0001-notes',
      statements: [
        `create table notes_kit_notes (
          id uuid primary key,
          workspace_id uuid not null references workspaces (id) on delete cascade,
          text text not null,
          created_by text not null
        )`,
        'create index notes_kit_notes_workspace on notes_kit_notes (workspace_id)',
      ],
    },
    {
      name: 'notes-kit-0002-finished-runs',
      statements: ['create table notes_kit_finished_runs (task_id uuid primary key, workspace_id uuid not null, status text not null)'],
    },
  ],
  setup(ctx) {
    const db = ctx.use(sqlDatabasePort);
    const outbox = ctx.use(outboxFeedPort);
    ctx.provide(apiEndpointsCapability, {
      name: 'notes-kit',
      tag: 'Notes',
      endpoints: [
        {
          method: 'POST',
          path: '/notes-kit/notes',
          policy: { scope: 'tests:write', permission: 'manage_tests' },
          summary: 'Keep a note',
          body: Type.Object({ text: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
          response: Note,
          status: 201,
          async handle({ caller, body }) {
            const { text } = body as { text: string };
            if (text.includes('forbidden')) throw badRequest('a note may not say "forbidden"');
            const id = crypto.randomUUID();
            await db.all('insert into notes_kit_notes (id, workspace_id, text, created_by) values (?, ?, ?, ?)', [id, caller.workspace.workspaceId, text, caller.userId]);
            return { id, text, created_by: caller.userId };
          },
        },
        {
          method: 'GET',
          path: '/notes-kit/notes',
          policy: { scope: 'tests:read' },
          summary: "The workspace's notes",
          response: Type.Array(Note),
          handle: ({ caller }) =>
            db.all('select id, text, created_by from notes_kit_notes where workspace_id = ? order by text', [caller.workspace.workspaceId]),
        },
        {
          method: 'GET',
          path: '/notes-kit/notes/:id',
          policy: { scope: 'tests:read' },
          summary: 'One note',
          response: Note,
          async handle({ caller, params }) {
            const [note] = await db.all('select id, text, created_by from notes_kit_notes where workspace_id = ? and id::text = ?', [caller.workspace.workspaceId, params.id]);
            if (!note) throw notFound('no such note');
            return note;
          },
        },
        {
          method: 'DELETE',
          path: '/notes-kit/notes/:id',
          policy: { scope: 'tests:write', permission: 'manage_tests' },
          summary: 'Forget a note',
          status: 204,
          async handle({ caller, params }) {
            const gone = await db.all('delete from notes_kit_notes where workspace_id = ? and id::text = ? returning id', [caller.workspace.workspaceId, params.id]);
            if (gone.length === 0) throw notFound('no such note');
          },
        },
        {
          method: 'GET',
          path: '/notes-kit/finished-runs',
          policy: { scope: 'runs:read' },
          summary: 'Runs of the workspace this plugin saw finish (from the outbox)',
          handle: ({ caller }) => db.all('select task_id, status from notes_kit_finished_runs where workspace_id = ?', [caller.workspace.workspaceId]),
        },
        {
          method: 'GET',
          path: '/notes-kit/raw',
          policy: { scope: 'any' },
          summary: 'An answer of its own making',
          handle: ({ clientAddress }) => new Response(`raw ${clientAddress ?? 'in-process'}`, { headers: { 'content-type': 'text/plain' } }),
        },
      ],
    });
    // The outbox under the plugin's own cursor; its rows and the cursor commit together.
    const pass = coalescingPass(async () => {
      if (ctx.signal.aborted) return;
      while (
        (await outbox.consume('notes-kit', { events: ['run.finished'] }, async (rows, tx) => {
          for (const row of rows) {
            await tx.all('insert into notes_kit_finished_runs (task_id, workspace_id, status) values (?, ?, ?) on conflict do nothing', [
              row.taskId,
              row.workspaceId,
              String(row.payload.status),
            ]);
          }
        })) > 0
      );
    }, { stopped: () => ctx.signal.aborted, onError: (error) => ctx.logger.warn('notes-kit pass failed', { error: String(error) }) });
    ctx.provide(notificationChannelCapability, { name: 'notes-kit', wake: () => pass() });
    ctx.onStop(() => pass.settled());
  },
});

const endpoint = (overrides: Partial<ApiEndpoint>): ApiEndpoint => ({
  method: 'GET',
  path: '/things',
  policy: { scope: 'tests:read' },
  summary: 'things',
  handle: () => [],
  ...overrides,
});
const entry = (...endpoints: ApiEndpoint[]): ApiEndpoints => ({ name: 'things', endpoints });

describe('boot errors name the plugin', () => {
  test('an endpoint with a bad path, method or policy, or declared twice', () => {
    expect(() => endpointRoutes(entry(endpoint({ path: 'things' })))).toThrow(
      new KernelBootError('plugin things: endpoint GET things: the path must be relative to /api/v1, like /things/:id'),
    );
    expect(() => endpointRoutes(entry(endpoint({ path: '/api/v1/../x y' })))).toThrow(KernelBootError);
    expect(() => endpointRoutes(entry(endpoint({ path: '/things/../users' })))).toThrow(/the path must be relative to \/api\/v1/);
    expect(() => endpointRoutes(entry(endpoint({ method: 'TRACE' as never })))).toThrow(/plugin things: endpoint TRACE \/things: the method must be one of/);
    expect(() => endpointRoutes(entry(endpoint({ policy: undefined as never })))).toThrow('plugin things: endpoint GET /things declares no access policy');
    expect(() => endpointRoutes(entry(endpoint({}), endpoint({ path: '/things/:id' }), endpoint({})))).toThrow('plugin things: endpoint GET /things is declared twice');
    expect(endpointRoutes(entry(endpoint({}), endpoint({ method: 'POST' }))).policies).toEqual({
      'GET /api/v1/things': { scope: 'tests:read' },
      'POST /api/v1/things': { scope: 'tests:read' },
    });
  });

  test('a plain-SQL migration must carry the plugin name, be listed once and hold statements', () => {
    const plugin = (sqlMigrations: unknown) => definePlugin({ name: 'things', sqlMigrations: sqlMigrations as never, setup() {} });
    expect(() => pluginMigrations([plugin([{ name: 'other-0001', statements: ['select 1'] }])])).toThrow(
      new KernelBootError('plugin things: migration "other-0001": a name must start with "things-" and use lower-case letters, digits, ".", "_" or "-"'),
    );
    expect(() => pluginMigrations([plugin([{ name: 'things-0001', statements: ['select 1'] }, { name: 'things-0001', statements: ['select 2'] }])])).toThrow(
      'plugin things: migration "things-0001" is listed twice',
    );
    expect(() => pluginMigrations([plugin([{ name: 'things-0001', statements: [] }])])).toThrow('statements must be a non-empty list of SQL strings');
    expect(() => pluginMigrations([plugin([{ name: 'things-0001', statements: [' '] }])])).toThrow('statements must be a non-empty list of SQL strings');
    const [made] = pluginMigrations([plugin([{ name: 'things-0001', statements: ['select 1'] }])]);
    expect(new made!(undefined, undefined).name).toBe('things-0001');
  });
});

describe("a kit plugin's tables, endpoints and outbox in a running service", () => {
  let ts: TestService;
  let owner: string;
  beforeAll(async () => {
    ts = await startTestService({ boot: { extraPlugins: [notesPlugin] } });
    owner = await ts.createUser('notes-owner');
  }, 180_000);
  afterAll(() => ts?.stop());

  test('its migrations ran once, recorded under their names', async () => {
    const applied = await sqlOf(ts.service.database).all<{ name: string }>("select name from mikro_orm_migrations where name like 'notes-kit-%' order by name");
    expect(applied.map((row) => row.name)).toEqual(['notes-kit-0001-notes', 'notes-kit-0002-finished-runs']);
  });

  test('endpoints answer 401 without a token and refuse a token without the scope', async () => {
    const anonymous = await ts.request('/api/v1/notes-kit/notes');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('unauthorized');
    const { token: reader } = await ts.apiToken('notes-reader', ['tests:read']);
    expect((await ts.request('/api/v1/notes-kit/notes', { token: reader })).status).toBe(200);
    const refused = await ts.request('/api/v1/notes-kit/notes', { method: 'POST', token: reader, json: { text: 'no' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('insufficient_scope');
  });

  test('a body is validated before the handler, and its errors are {error, message}', async () => {
    for (const json of [{}, { text: '' }, { text: 'x', extra: 1 }]) {
      const invalid = await ts.request('/api/v1/notes-kit/notes', { method: 'POST', token: owner, json });
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { error: string }).error).toBe('bad_request');
    }
    const refused = await ts.request('/api/v1/notes-kit/notes', { method: 'POST', token: owner, json: { text: 'forbidden words' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'bad_request', message: 'a note may not say "forbidden"' });
    expect((await ts.request('/api/v1/notes-kit/notes', { method: 'POST', token: owner, body: 'text=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  test("create, read, list and delete in the caller's workspace; another workspace's id answers 404", async () => {
    const created = await ts.request('/api/v1/notes-kit/notes', { method: 'POST', token: owner, json: { text: 'first' } });
    expect(created.status).toBe(201);
    const note = (await created.json()) as { id: string; text: string };
    expect(note.text).toBe('first');
    expect(await (await ts.request(`/api/v1/notes-kit/notes/${note.id}`, { token: owner })).json()).toMatchObject({ id: note.id, text: 'first' });

    const stranger = await ts.createUser('notes-stranger');
    expect((await ts.request(`/api/v1/notes-kit/notes/${note.id}`, { token: stranger })).status).toBe(404);
    expect((await ts.request(`/api/v1/notes-kit/notes/${note.id}`, { method: 'DELETE', token: stranger })).status).toBe(404);
    expect(await (await ts.request('/api/v1/notes-kit/notes', { token: stranger })).json()).toEqual([]);

    const gone = await ts.request(`/api/v1/notes-kit/notes/${note.id}`, { method: 'DELETE', token: owner });
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe('');
    expect((await ts.request(`/api/v1/notes-kit/notes/${note.id}`, { token: owner })).status).toBe(404);
  });

  test('a handler may answer with a Response of its own', async () => {
    const raw = await ts.request('/api/v1/notes-kit/raw', { token: owner });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain');
    expect(await raw.text()).toBe('raw in-process');
  });

  test('the endpoints are in the OpenAPI document and in the service policies', async () => {
    const doc = (await (await ts.request('/swagger-ui/openapi.json')).json()) as {
      paths: Record<string, Record<string, { summary: string; tags: string[]; security: unknown[]; responses: Record<string, unknown> }>>;
    };
    const post = doc.paths['/api/v1/notes-kit/notes']?.post;
    expect(post?.summary).toBe('Keep a note');
    expect(post?.tags).toEqual(['Notes']);
    expect(post?.security).toEqual([{ bearerAuth: [] }]);
    // The document adds what every /api/v1 route may answer (413, 415, 429) to what the endpoint declares.
    expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(Object.keys(post?.responses ?? {})).not.toContain('200');
    const removal = Object.keys(doc.paths['/api/v1/notes-kit/notes/{id}']?.delete?.responses ?? {});
    expect(removal).toEqual(expect.arrayContaining(['204', '401', '403', '404']));
    expect(removal).not.toContain('200');
    expect(ts.service.routePolicies['DELETE /api/v1/notes-kit/notes/:id']).toEqual({ scope: 'tests:write', permission: 'manage_tests' });
  });

  test('the plugin reads run.finished from the outbox into its own table, per workspace', async () => {
    const testId = ((await (await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name: 'noted', tool: 'custom', script: 'echo hi' } })).json()) as { id: string }).id;
    const task = (await (await ts.request('/api/v1/tasks', { method: 'POST', token: owner, json: { testId } })).json()) as { id: string };
    // No machine is online: the run waits, and cancelling it is its run.finished.
    expect((await ts.request(`/api/v1/tasks/${task.id}`, { method: 'DELETE', token: owner })).status).toBeLessThan(300);
    await waitFor(
      async () => ((await (await ts.request('/api/v1/notes-kit/finished-runs', { token: owner })).json()) as unknown[]).length > 0,
      30_000,
      'the plugin to see the cancelled run',
    );
    expect(await (await ts.request('/api/v1/notes-kit/finished-runs', { token: owner })).json()).toEqual([{ task_id: task.id, status: 'cancelled' }]);
    const other = await ts.createUser('notes-other');
    expect(await (await ts.request('/api/v1/notes-kit/finished-runs', { token: other })).json()).toEqual([]);
  });
});
