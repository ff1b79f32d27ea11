import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.stop());

describe('service basics', () => {
  test('GET /healthz answers ok without a token', async () => {
    const response = await ts.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('every answer says X-Content-Type-Options: nosniff: API, errors, docs, the IdP, /metrics, plugin pages', async () => {
    const owner = await ts.createUser('nosniff-owner');
    const answers = [
      await ts.request('/healthz'),
      await ts.request('/api/v1/tests', { token: owner }),
      await ts.request('/api/v1/tests'),
      await ts.request('/api/v1/nope', { token: owner }),
      await ts.request('/api/v1/tests', { method: 'POST', token: owner, json: { name: 1 } }),
      await ts.request('/swagger-ui/'),
      await ts.request('/swagger-ui/openapi.json'),
      await ts.request('/metrics'),
      await ts.request('/auth/realms/loadplane/.well-known/openid-configuration'),
      await ts.request('/auth/realms/loadplane/protocol/openid-connect/auth?client_id=nobody'),
    ];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options'), answer.url).toBe('nosniff');
  });

  test('unknown routes answer 404 in the error body', async () => {
    for (const path of ['/nope', '/api/v1/nope', '/api/v2/machines']) {
      const response = await ts.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  test('a declared body over the limit is 413 before any parsing', async () => {
    const response = await ts.request('/api/v1/tests', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      body: '{}',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
  });

  test('a chunked body over the limit is cut off with 413', async () => {
    const token = await ts.createUser('chunky');
    const chunk = new TextEncoder().encode(`{"name":"x","tool":"k6","script":"${'y'.repeat(512 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 8) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await ts.request('/api/v1/tests', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body,
      // @ts-expect-error -- Bun needs duplex for a streamed request body
      duplex: 'half',
    });
    expect(response.status).toBe(413);
  });

  test('a body that is not JSON is 415 unread; a string holding U+0000 is a 400 naming the field', async () => {
    const token = await ts.createUser('typist');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await ts.request('/api/v1/tests', { method: 'POST', token, headers: { 'content-type': type }, body: 'name=a&tool=k6&script=x' });
      expect(response.status, type).toBe(415);
      expect(await response.json()).toMatchObject({ error: 'unsupported_media_type' });
    }
    // A JSON type with a suffix is JSON.
    const merge = await ts.request('/api/v1/tests', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
      body: JSON.stringify({ name: 'suffix', tool: 'k6', script: 'export default function () {}' }),
    });
    expect(merge.status).toBe(201);
    const nul = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'n', tool: 'k6', script: 'a\u0000b' } });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { message: string }).message).toContain('body field "script" contains U+0000');
    const nulKey = await ts.request('/api/v1/access-controls', { method: 'PUT', token, json: { roles: { 'vie\u0000wer': [] } } });
    expect(nulKey.status).toBe(400);
  });

  test('a method the path does not declare is 405 with Allow; OPTIONS lists them; HEAD answers like GET', async () => {
    const token = await ts.createUser('methodical');
    const put = await ts.request('/api/v1/machines', { method: 'PUT', token });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await put.json()).toMatchObject({ error: 'method_not_allowed' });
    const options = await ts.request(`/api/v1/members/${crypto.randomUUID()}`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('PATCH, DELETE');
    const head = await ts.request('/api/v1/machines', { method: 'HEAD', token });
    expect(head.status).toBe(200);
    expect((await ts.request('/api/v1/machines', { method: 'HEAD' })).status).toBe(401);
    // A WebSocket path asked for without the upgrade: its access check first, then 426.
    expect((await ts.request('/api/v1/agent')).status).toBe(401);
    const plain = await ts.request('/api/v1/agent', { token });
    expect(plain.status).toBe(426);
    expect(plain.headers.get('upgrade')).toBe('websocket');
  });

  test('an internal error answers 500 without a stack trace', async () => {
    const token = await ts.createUser('breaker');
    const original = ts.service.database.fork;
    (ts.service.database as { fork: unknown }).fork = () => {
      throw new Error('secret internals at /srv/app.ts:12');
    };
    try {
      const response = await ts.request('/api/v1/machines', { token });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: 'internal_error', message: 'internal server error' });
      expect(text).not.toContain('secret internals');
    } finally {
      (ts.service.database as { fork: unknown }).fork = original;
    }
  });
});

describe('API docs', () => {
  test('Swagger UI renders from local assets, no CDN', async () => {
    const page = await ts.request('/swagger-ui/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    // The bearer token typed into "Authorize" must not outlive the tab in localStorage.
    expect(html).toContain('persistAuthorization: false');
    for (const asset of html.matchAll(/(?:src|href)="(\/swagger-ui\/assets\/[^"]+)"/g)) {
      const response = await ts.request(asset[1]!);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await ts.request('/swagger-ui/assets/..%2F..%2Fpackage.json')).status).toBe(404);
    expect((await ts.request('/swagger-ui')).status).toBe(200);
  });

  test('the OpenAPI document covers every /api/v1 route with schemas', async () => {
    const response = await ts.request('/swagger-ui/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    // Every route with an access policy is documented, and nothing undocumented hides under /api/v1.
    const expected = Object.keys(ts.service.routePolicies).map((key) => {
      const [method, path] = key.split(' ');
      return [method!.toLowerCase(), path!.replace(/:(\w+)/g, '{$1}')] as const;
    });
    expect(expected.length).toBeGreaterThanOrEqual(20);
    for (const [method, path] of expected) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses).length, `${method} ${path} responses`).toBeGreaterThan(1);
      // Actions on a resource (rotate a token, accept an invitation) take no body.
      if (method === 'post' && !/\/(rotate|accept)$/.test(path)) expect(operation!.requestBody, `${method} ${path} body`).toBeDefined();
      if (method === 'patch' || method === 'put') expect(operation!.requestBody, `${method} ${path} body`).toBeDefined();
    }
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      path.startsWith('/api/v1') ? Object.keys(operations).map((method) => `${method} ${path}`) : [],
    );
    expect(documented.sort()).toEqual(expected.map(([method, path]) => `${method} ${path}`).sort());
  });
});
