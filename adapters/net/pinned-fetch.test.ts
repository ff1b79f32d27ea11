import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AnswerTooLargeError, createPinnedFetch, RefusedAddressError } from './pinned-fetch.ts';

let server: ReturnType<typeof Bun.serve>;
const seen: { host: string | null; method: string; body: string; custom: string | null }[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      seen.push({ host: request.headers.get('host'), method: request.method, body: await request.text(), custom: request.headers.get('x-custom') });
      if (url.pathname === '/redirect') return new Response(null, { status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
      if (url.pathname === '/large') return new Response('y'.repeat(64 * 1024));
      if (url.pathname === '/empty') return new Response(null, { status: 204 });
      return Response.json({ ok: true }, { headers: { 'x-answer': 'yes' } });
    },
  });
});
afterAll(() => server.stop(true));

const allowAll = async () => ({ ok: true as const, address: '127.0.0.1' });

describe('pinned fetch', () => {
  test('connects to the checked address whatever the name resolves to, keeping the name in Host', async () => {
    const checked: string[] = [];
    const fetch = createPinnedFetch({
      // A name that resolves nowhere: only the pinned address can make this request arrive.
      check: async (url) => (checked.push(url.href), { ok: true, address: '127.0.0.1' }),
      maxResponseBytes: 1024,
    });
    const response = await fetch(`http://mcp.loadplane.invalid:${server.port}/mcp`, {
      method: 'POST',
      headers: { 'x-custom': 'kept' },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(await response.json()).toEqual({ ok: true });
    expect(checked).toEqual([`http://mcp.loadplane.invalid:${server.port}/mcp`]);
    expect(seen.at(-1)).toEqual({ host: `mcp.loadplane.invalid:${server.port}`, method: 'POST', body: '{"jsonrpc":"2.0"}', custom: 'kept' });
  });

  test('a refused URL is never requested', async () => {
    const before = seen.length;
    const fetch = createPinnedFetch({ check: async () => ({ ok: false, reason: '10.0.0.1 is a private address' }), maxResponseBytes: 1024 });
    const error = await fetch(`http://127.0.0.1:${server.port}/mcp`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as Error).message).toBe('10.0.0.1 is a private address');
    expect(seen.length).toBe(before);
  });

  test('a redirect comes back as it is, not followed', async () => {
    const response = await createPinnedFetch({ check: allowAll, maxResponseBytes: 1024 })(`http://127.0.0.1:${server.port}/redirect`, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('http://127.0.0.1:1/elsewhere');
  });

  test('an answer past the byte budget fails while it is read', async () => {
    const response = await createPinnedFetch({ check: allowAll, maxResponseBytes: 1024 })(`http://127.0.0.1:${server.port}/large`);
    expect(response.status).toBe(200);
    expect(await response.text().catch((e: unknown) => e)).toBeInstanceOf(AnswerTooLargeError);
  });

  test('an answer without a body, and an aborted request', async () => {
    const fetch = createPinnedFetch({ check: allowAll, maxResponseBytes: 1024 });
    const empty = await fetch(`http://127.0.0.1:${server.port}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const controller = new AbortController();
    controller.abort();
    expect(await fetch(`http://127.0.0.1:${server.port}/mcp`, { signal: controller.signal }).catch((e: unknown) => (e as Error).name)).toBe('AbortError');
  });
});
