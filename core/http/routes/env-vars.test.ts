/** /env-vars through the REST API: set, replace, list (never a value), delete; bad names and sizes; scopes, roles, tenants; sealed at rest. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../../../tests/helpers/invitations.ts';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';
import { maxEnvValueBytes, maxEnvVarsPerWorkspace } from '../../domain/env-var-rules.ts';
import { sqlOf } from '../../services/sql.ts';

let ts: TestService;
let counter = 0;
const fresh = () => ts.createUser(`envuser${++counter}`);

const put = (token: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  ts.request(`/api/v1/env-vars/${key}`, { method: 'PUT', token, json: body, headers });
const list = async (token: string, headers: Record<string, string> = {}) => {
  const response = await ts.request('/api/v1/env-vars', { token, headers });
  expect(response.status).toBe(200);
  return { text: await response.clone().text(), rows: (await response.json()) as Record<string, unknown>[] };
};
const errorOf = async (response: Response) => (await response.json()) as { error: string; message: string };

beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('env-vars: happy path', () => {
  test('PUT creates (201) then replaces (200); the list shows keys, times and who, never the value; DELETE removes', async () => {
    const owner = await fresh();
    const created = await put(owner, 'API_TOKEN', { value: 'first-value-123' });
    expect(created.status).toBe(201);
    const first = (await created.json()) as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(['created_at', 'key', 'updated_at', 'updated_by']);
    expect(first).toMatchObject({ key: 'API_TOKEN', updated_by: { type: 'user', label: `envuser${counter}` } });
    expect(String(first.created_at)).toMatch(/Z$/);

    await Bun.sleep(5);
    const replaced = await put(owner, 'API_TOKEN', { value: 'second-value-456' });
    expect(replaced.status).toBe(200);
    const second = (await replaced.json()) as Record<string, string>;
    expect(second.created_at).toBe(first.created_at as string);
    expect(second.updated_at > second.created_at!).toBe(true);

    expect((await put(owner, 'lower_case_9', { value: '' })).status).toBe(201);
    const { text, rows } = await list(owner);
    expect(rows.map((row) => row.key)).toEqual(['lower_case_9', 'API_TOKEN']);
    expect(text).not.toContain('value');
    expect(text).not.toContain('first-value-123');
    expect(text).not.toContain('second-value-456');

    expect((await ts.request('/api/v1/env-vars/API_TOKEN', { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await list(owner)).rows.map((row) => row.key)).toEqual(['lower_case_9']);
    const again = await ts.request('/api/v1/env-vars/API_TOKEN', { method: 'DELETE', token: owner });
    expect(again.status).toBe(404);
    expect(await errorOf(again)).toEqual({ error: 'not_found', message: 'environment variable not found' });
  });

  test('values are sealed at rest; the audit log names each change, never the value', async () => {
    const owner = await fresh();
    expect((await put(owner, 'DB_PASSWORD', { value: 'hunter2-is-not-safe' })).status).toBe(201);
    expect((await put(owner, 'DB_PASSWORD', { value: 'better-pass-998' })).status).toBe(200);
    expect((await ts.request('/api/v1/env-vars/DB_PASSWORD', { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await put(owner, 'KEPT', { value: 'kept-secret-value' })).status).toBe(201);
    const rows = await sqlOf(ts.service.database).all<Record<string, unknown>>("select * from env_vars where key = 'KEPT'");
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.value_box)).toStartWith('v1.');
    expect(JSON.stringify(rows)).not.toContain('kept-secret-value');
    const audit = await ts.request('/api/v1/audit-log', { token: owner });
    const text = await audit.text();
    const actions = (JSON.parse(text) as { action: string; target: { label: string } }[]).filter((e) => e.action.startsWith('env_var.'));
    expect(actions.map((e) => `${e.action} ${e.target.label}`)).toEqual([
      'env_var.created KEPT',
      'env_var.deleted DB_PASSWORD',
      'env_var.updated DB_PASSWORD',
      'env_var.created DB_PASSWORD',
    ]);
    for (const value of ['hunter2-is-not-safe', 'better-pass-998', 'kept-secret-value']) expect(text).not.toContain(value);
  });
});

describe('env-vars: bad input', () => {
  test('names that are not environment names, reserved names, and bad bodies are clear 400s', async () => {
    const owner = await fresh();
    for (const [key, fragment] of [
      ['1ABC', 'not an environment variable name'],
      ['A-B', 'not an environment variable name'],
      ['PATH', 'set by the agent itself'],
      ['home', 'set by the agent itself'],
      ['LD_PRELOAD', 'reserved'],
      ['LOADPLANE_TASK_ID', 'reserved'],
      ['JAVA_TOOL_OPTIONS', 'JAVA_* is read by Java'],
      ['K'.repeat(129), 'at most 128'],
    ] as const) {
      const response = await put(owner, key, { value: 'x' });
      expect(response.status, key).toBe(400);
      const body = await errorOf(response);
      expect(body.error).toBe('bad_request');
      expect(body.message, key).toContain(fragment);
    }
    for (const [body, field] of [[{}, 'value'], [{ value: 5 }, 'value'], [{ value: 'x', extra: true }, 'extra'], [{ value: null }, 'value']] as const) {
      const response = await put(owner, 'GOOD', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).message, JSON.stringify(body)).toContain(field);
    }
    const big = await put(owner, 'BIG', { value: 'x'.repeat(maxEnvValueBytes + 1) });
    expect(big.status).toBe(400);
    expect((await errorOf(big)).message).toBe(`value is ${maxEnvValueBytes + 1} bytes; the limit is ${maxEnvValueBytes} bytes`);
    const nul = await put(owner, 'NUL', { value: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect((await errorOf(nul)).message).toContain('NUL');
    expect((await list(owner)).rows).toEqual([]);
  });

  test('names a shell, an interpreter, the loader or an engine reads are refused by family, the message naming the rule', async () => {
    const owner = await fresh();
    for (const [key, rule] of [
      ['SHELLOPTS', 'SHELLOPTS is read by the shell'],
      ['PS4', 'PS4 is read by the shell'],
      ['BASHOPTS', 'BASH* is read by the shell'],
      ['PROMPT_COMMAND', 'PROMPT_COMMAND is read by the shell'],
      ['JAVA_OPTS', 'JAVA_* is read by Java'],
      ['MAVEN_OPTS', 'MAVEN_* is read by Java'],
      ['PERL5LIB', 'PERL* is read by Perl'],
      ['PYTHONHOME', 'PYTHON* is read by Python'],
      ['PYTHONWARNINGS', 'PYTHON* is read by Python'],
      ['GCONV_PATH', 'GCONV_PATH is read by the C library'],
      ['NODE_PATH', 'NODE_* is read by a JavaScript runtime'],
      ['HOSTALIASES', 'HOSTALIASES is read by the C library'],
      ['TMPDIR', 'TMPDIR is read by the C library'],
      ['K6_LOG_FORMAT', 'K6_* is read by a load engine'],
      ['LC_ALL', 'LC_* is set by the agent itself'],
    ] as const) {
      const response = await put(owner, key, { value: 'x' });
      expect(response.status, key).toBe(400);
      expect(await errorOf(response), key).toEqual({ error: 'bad_request', message: expect.stringContaining(`key ${key} is reserved: ${rule}`) });
    }
    expect((await list(owner)).rows).toEqual([]);
  });

  test('a variable stored before its name was reserved is listed and can be deleted; a malformed name stays 404', async () => {
    const owner = await fresh();
    expect((await put(owner, 'WILL_BE_RESERVED', { value: 'old-python-home' })).status).toBe(201);
    // As if stored before the rule: rename it in the database, bypassing the PUT.
    await sqlOf(ts.service.database).all("update env_vars set key = 'PYTHONHOME' where key = 'WILL_BE_RESERVED'");
    expect((await list(owner)).rows.map((row) => row.key)).toEqual(['PYTHONHOME']);
    // It cannot be replaced (the rule applies) but it can be deleted.
    expect((await put(owner, 'PYTHONHOME', { value: 'new' })).status).toBe(400);
    expect((await ts.request('/api/v1/env-vars/PYTHONHOME', { method: 'DELETE', token: owner })).status).toBe(204);
    expect((await list(owner)).rows).toEqual([]);
    expect((await ts.request('/api/v1/env-vars/PYTHONHOME', { method: 'DELETE', token: owner })).status).toBe(404);
    const malformed = await ts.request('/api/v1/env-vars/A-B', { method: 'DELETE', token: owner });
    expect(malformed.status).toBe(404);
    expect(await errorOf(malformed)).toEqual({ error: 'not_found', message: 'environment variable not found' });
  });

  test(`a workspace holds at most ${maxEnvVarsPerWorkspace} variables; replacing one still works at the limit`, async () => {
    const owner = await fresh();
    const results = await Promise.all(Array.from({ length: maxEnvVarsPerWorkspace + 5 }, (_, i) => put(owner, `V${i}`, { value: `v${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(maxEnvVarsPerWorkspace);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    const refused = results.find((r) => r.status === 400)!;
    expect((await errorOf(refused)).message).toContain(`at most ${maxEnvVarsPerWorkspace}`);
    const kept = (await list(owner, {})).rows.length;
    expect(kept).toBe(maxEnvVarsPerWorkspace);
    const existing = results.findIndex((r) => r.status === 201);
    expect((await put(owner, `V${existing}`, { value: 'new' })).status).toBe(200);
  });
});

describe('env-vars: who may', () => {
  test('tests:read lists but cannot set; tests:write sets; other scopes get 403; a viewer reads but cannot set', async () => {
    const reader = await ts.apiToken(`envreader${++counter}`, ['tests:read']);
    const writer = await ts.request('/api/v1/api-tokens', { method: 'POST', token: reader.jwt, json: { name: 'w', scopes: ['tests:write'] } });
    const writerToken = ((await writer.json()) as { token: string }).token;
    const runs = await ts.request('/api/v1/api-tokens', { method: 'POST', token: reader.jwt, json: { name: 'r', scopes: ['runs:read', 'runs:write'] } });
    const runsToken = ((await runs.json()) as { token: string }).token;

    expect((await put(writerToken, 'BY_TOKEN', { value: 'from-a-token' })).status).toBe(201);
    expect((await ts.request('/api/v1/env-vars', { token: reader.token })).status).toBe(200);
    expect((await put(reader.token, 'NOPE', { value: 'x' })).status).toBe(403);
    expect((await ts.request('/api/v1/env-vars/BY_TOKEN', { method: 'DELETE', token: reader.token })).status).toBe(403);
    expect((await ts.request('/api/v1/env-vars', { token: runsToken })).status).toBe(403);
    const rows = (await list(reader.jwt)).rows;
    expect(rows[0]).toMatchObject({ key: 'BY_TOKEN', updated_by: { type: 'token', label: 'w' } });

    const viewer = await fresh();
    // Invitations find people who have signed in once.
    await ts.request('/api/v1/auth/me', { token: viewer });
    const workspace = (await (await ts.request('/api/v1/workspace', { token: reader.jwt })).json()) as { id: string };
    await inviteAndAccept(ts, reader.jwt, `envuser${counter}`, 'viewer', viewer);
    const inA = { 'x-workspace-id': workspace.id };
    expect((await list(viewer, inA)).rows.map((r) => r.key)).toEqual(['BY_TOKEN']);
    const refused = await put(viewer, 'VIEWER', { value: 'x' }, inA);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('manage_tests');
  });

  test("another workspace neither sees nor changes a workspace's variables", async () => {
    const a = await fresh();
    const b = await fresh();
    expect((await put(a, 'SHARED_NAME', { value: 'a-value-1234' })).status).toBe(201);
    expect((await list(b)).rows).toEqual([]);
    expect((await ts.request('/api/v1/env-vars/SHARED_NAME', { method: 'DELETE', token: b })).status).toBe(404);
    // B's own variable of the same name is B's alone.
    expect((await put(b, 'SHARED_NAME', { value: 'b-value-5678' })).status).toBe(201);
    expect((await list(a)).rows.map((r) => r.key)).toEqual(['SHARED_NAME']);
    const values = await sqlOf(ts.service.database).all<{ n: number }>("select count(*)::int as n from env_vars where key = 'SHARED_NAME'");
    expect(values[0]!.n).toBe(2);
  });

  test('no token: 401', async () => {
    expect((await ts.request('/api/v1/env-vars')).status).toBe(401);
    expect((await ts.request('/api/v1/env-vars/X', { method: 'PUT', json: { value: 'x' } })).status).toBe(401);
  });
});
