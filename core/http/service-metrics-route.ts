/**
 * GET /metrics (outside /api/v1): the service's own Prometheus metrics for operators, behind a bearer token whoever
 * calls: METRICS_TOKEN, or the token generated once into the database (and DATA_DIR/metrics-token) when it is unset.
 * Loopback is no credential: a script of the local agent shares the host's loopback, and so does every client behind
 * a proxy on the same host.
 */
import { Elysia, t } from 'elysia';
import { DomainError } from '../kernel/errors.ts';
import { exposition, type ServiceHealth } from '../services/metrics/service-health.ts';
import { errorResponse } from './error-mapper.ts';
import { ErrorBody } from './schemas/common.ts';

/** Compares without an early exit, so the answer time says nothing about how much of the token matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!;
  return difference === 0;
}

export const serviceMetricsRoute = (options: { health: ServiceHealth; metricsToken: string }) => {
  // An empty token would let an empty bearer in: refuse to serve rather than serve everyone.
  if (!options.metricsToken) throw new Error('GET /metrics needs a token (METRICS_TOKEN or the generated one)');
  return new Elysia().get(
    '/metrics',
    async ({ request }) => {
      const header = request.headers.get('authorization') ?? '';
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
      if (!sameSecret(given, options.metricsToken)) {
        return errorResponse(
          new DomainError('unauthorized', 'GET /metrics needs the metrics token as a bearer token (METRICS_TOKEN, or DATA_DIR/metrics-token)'),
          { 'www-authenticate': 'Bearer' },
        );
      }
      return new Response(await options.health.render(), { headers: { 'content-type': exposition } });
    },
    {
      response: { 200: t.String({ description: 'Prometheus text exposition format' }), 401: ErrorBody },
      detail: {
        tags: ['Service'],
        summary: "The service's own Prometheus metrics",
        description:
          'Needs `Authorization: Bearer <token>` from every caller, loopback included: the token is METRICS_TOKEN, or, when ' +
          'it is unset, the one generated at the first start, kept in the database for every replica and copied to ' +
          '`DATA_DIR/metrics-token`. Without it, or with another one: 401 with `WWW-Authenticate: Bearer`.',
        security: [{ bearerAuth: [] }],
      },
    },
  );
};
