import { describe, expect, test } from 'bun:test';
import { createRestClient, RestError, serviceAddress } from './rest-client.ts';

const address = serviceAddress('https://lp.example.test');

function clientAnswering(answer: (request: Request) => Response | Promise<Response>, headers?: Record<string, string>) {
  const seen: Request[] = [];
  const rest = createRestClient({
    address,
    token: 'psk_secret',
    headers,
    fetch: async (request) => {
      seen.push(request);
      return answer(request);
    },
  });
  return { rest, seen };
}

describe('serviceAddress', () => {
  test('the site address with or without /api/v1, a proxy prefix kept', () => {
    for (const raw of ['https://lp.example.test', 'https://lp.example.test/', 'https://lp.example.test/api/v1', ' https://lp.example.test/api/v1/ ']) {
      expect(serviceAddress(raw)).toEqual({ siteUrl: 'https://lp.example.test', apiUrl: 'https://lp.example.test/api/v1' });
    }
    expect(serviceAddress('http://host:8080/loadplane/api/v1')).toEqual({ siteUrl: 'http://host:8080/loadplane', apiUrl: 'http://host:8080/loadplane/api/v1' });
    expect(() => serviceAddress('ftp://host')).toThrow('http or https');
    expect(() => serviceAddress('not a url')).toThrow();
  });
});

describe('createRestClient', () => {
  test('sends the bearer token and the passed-on headers; pages carry X-Next-Cursor', async () => {
    const { rest, seen } = clientAnswering(() => Response.json([{ id: 'a' }], { headers: { 'x-next-cursor': 'c2' } }), { 'x-workspace-id': 'w1' });
    expect(await rest.page('/tests', { limit: 5, cursor: 'c1' }, { metric: ['a', 'b'], skipped: undefined })).toEqual({ items: [{ id: 'a' }], next_cursor: 'c2' });
    const request = seen[0]!;
    expect(request.url).toBe('https://lp.example.test/api/v1/tests?metric=a&metric=b&limit=5&cursor=c1');
    expect(request.headers.get('authorization')).toBe('Bearer psk_secret');
    expect(request.headers.get('x-workspace-id')).toBe('w1');
  });

  test('a JSON error body becomes a RestError with its code; any other answer a code from the status', async () => {
    const refusing = clientAnswering(() => Response.json({ error: 'insufficient_scope', message: 'needs runs:write' }, { status: 403 })).rest;
    await expect(refusing.send('POST', '/tasks', {})).rejects.toMatchObject({ status: 403, code: 'insufficient_scope', message: 'needs runs:write' });
    const proxy = clientAnswering(() => new Response('<html>bad gateway</html>', { status: 502 })).rest;
    await expect(proxy.get('/tasks')).rejects.toMatchObject({ status: 502, code: 'http_502', message: 'HTTP 502: <html>bad gateway</html>' });
    const down = clientAnswering(() => Promise.reject(new Error('connection refused'))).rest;
    const error = await down.get('/tasks').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ status: 0, code: 'service_unreachable' });
    expect((error as Error).message).not.toContain('psk_secret');
  });

  test('204 answers null; a body is sent as JSON', async () => {
    const { rest, seen } = clientAnswering(() => new Response(null, { status: 204 }));
    expect(await rest.send('DELETE', '/tasks/1')).toBeNull();
    await rest.send('PATCH', '/tests/1', { name: 'x' });
    expect(seen[1]!.headers.get('content-type')).toBe('application/json');
    expect(await seen[1]!.json()).toEqual({ name: 'x' });
  });
});
