/** GET /metrics wants its bearer token from every caller: a loopback peer without it is a 401, as is an empty or wrong one. */
import { describe, expect, test } from 'bun:test';
import type { ServiceHealth } from '../services/metrics/service-health.ts';
import { noteClientAddress, rememberPeerAddress } from './client-address.ts';
import { serviceMetricsRoute } from './service-metrics-route.ts';

const token = 'metrics-token-for-the-route-test';
const health: ServiceHealth = {
  countResponse: () => {},
  render: async () => '# TYPE loadplane_build_info gauge\nloadplane_build_info{version="0"} 1\n',
};
const app = serviceMetricsRoute({ health, metricsToken: token });

/** A request as the server notes it when it arrives from `peer` (the socket's address). */
function fromPeer(peer: string, headers: Record<string, string> = {}) {
  const request = new Request('http://localhost/metrics', { headers });
  rememberPeerAddress(request, peer);
  noteClientAddress(request, null);
  return request;
}

describe('GET /metrics', () => {
  test('loopback is no credential: 127.0.0.1 and ::1 without the token get 401 with WWW-Authenticate', async () => {
    for (const peer of ['127.0.0.1', '::1', '127.8.9.10']) {
      const answer = await app.handle(fromPeer(peer));
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await answer.json()) as { error: string }).error).toBe('unauthorized');
    }
  });

  test('a wrong, truncated, longer or empty bearer is refused; the token opens it from any address', async () => {
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, 'Bearer ', 'Bearer', `Basic ${token}`, token]) {
      expect((await app.handle(fromPeer('127.0.0.1', { authorization }))).status).toBe(401);
    }
    for (const peer of ['127.0.0.1', '203.0.113.7']) {
      const answer = await app.handle(fromPeer(peer, { authorization: `Bearer ${token}` }));
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('loadplane_build_info');
    }
  });

  test('refuses to be built without a token', () => {
    expect(() => serviceMetricsRoute({ health, metricsToken: '' })).toThrow(/needs a token/);
  });
});
