import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { bunSocket } from './start-node-agent.ts';
import { describeSocketFailure } from './socket-failure.ts';
import { waitFor } from '../../tests/helpers/process-probes.ts';

describe('describeSocketFailure', () => {
  test('an HTTP answer instead of the upgrade names what to fix', () => {
    expect(describeSocketFailure("WebSocket connection to 'ws://h/api/v1/agent' failed: Expected 101 status code: 401")).toContain('refused the token (HTTP 401)');
    expect(describeSocketFailure("WebSocket connection to 'ws://h/api/v1/agent' failed: Expected 101 status code: 403")).toContain('machines:write and runs:write');
    expect(describeSocketFailure("WebSocket connection to 'ws://h/x/api/v1/agent' failed: Expected 101 status code: 404")).toContain('service base URL');
    expect(describeSocketFailure("WebSocket connection to 'ws://h/api/v1/agent' failed: Expected 101 status code: 502")).toBe('the service answered HTTP 502 instead of opening the agent socket');
  });

  test('no connection at all, and anything else, keep the client\'s own words', () => {
    expect(describeSocketFailure("WebSocket connection to 'ws://127.0.0.1:1/api/v1/agent' failed: Failed to connect")).toStartWith('cannot reach the service');
    expect(describeSocketFailure("WebSocket connection to 'wss://h/api/v1/agent' failed: TLS handshake failed")).toBe('TLS handshake failed');
    expect(describeSocketFailure('')).toBe('connection failed');
  });
});

describe('bunSocket reports one close with the reason', () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ error: 'unauthorized', message: 'no' }, { status: 401 }) });
  });
  afterAll(() => server.stop(true));

  /** The first close report, however long the failure takes; then the count a moment later (a second report would be a bug). */
  const closeOf = async (url: string) => {
    const closes: { code: number; reason: string }[] = [];
    bunSocket(url, { authorization: 'Bearer psk_x' }).onClose((code, reason) => closes.push({ code, reason }));
    await waitFor(() => closes.length > 0, 30_000, 'the socket to report its close');
    // The error and the close event come together: a duplicate report would follow at once. A slow machine can only
    // make this check miss a duplicate, never fail one that is right.
    await Bun.sleep(100);
    return { ...closes[0]!, count: closes.length };
  };

  test('a refused token: 1006 with the 401 advice, reported once', async () => {
    const closed = await closeOf(`ws://127.0.0.1:${server.port}/api/v1/agent`);
    expect(closed).toMatchObject({ code: 1006, count: 1 });
    expect(closed.reason).toContain('HTTP 401');
  });

  test('nothing listening: says the service cannot be reached', async () => {
    // Port 1: nothing listens there on a test machine.
    const closed = await closeOf('ws://127.0.0.1:1/api/v1/agent');
    expect(closed.count).toBe(1);
    expect(closed.reason).toStartWith('cannot reach the service');
  });
});
