/**
 * GET /metrics (outside /api/v1): the service's own Prometheus metrics for operators. With METRICS_TOKEN set, callers
 * present it as a bearer token; without it, only loopback callers are answered (behind a proxy on the same host, set
 * METRICS_TOKEN or TRUSTED_PROXIES, or every client looks local).
 */
import { Elysia, t } from 'elysia';
import { cidrContains, parseAddress, parseCidr } from '../domain/ip-address.ts';
import { DomainError } from '../kernel/errors.ts';
import { exposition, type ServiceHealth } from '../services/metrics/service-health.ts';
import { clientAddressOf } from './client-address.ts';
import { errorResponse } from './error-mapper.ts';
import { ErrorBody } from './schemas/common.ts';

const loopback = [parseCidr('127.0.0.0/8')!, parseCidr('::1/128')!];
const isLoopback = (text: string) => {
  const address = parseAddress(text);
  return !!address && loopback.some((cidr) => cidrContains(cidr, address));
};

/** Compares without an early exit, so the answer time says nothing about how much of the token matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!;
  return difference === 0;
}

export const serviceMetricsRoute = (options: { health: ServiceHealth; metricsToken?: string }) =>
  new Elysia().get(
    '/metrics',
    async ({ request }) => {
      if (options.metricsToken) {
        const header = request.headers.get('authorization') ?? '';
        const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
        if (!sameSecret(given, options.metricsToken)) {
          return errorResponse(new DomainError('unauthorized', 'GET /metrics needs the METRICS_TOKEN as a bearer token'), { 'www-authenticate': 'Bearer' });
        }
      } else {
        const address = clientAddressOf(request);
        if (!address || !isLoopback(address)) {
          return errorResponse(new DomainError('forbidden', 'GET /metrics answers loopback callers only; set METRICS_TOKEN to scrape it from elsewhere'));
        }
      }
      return new Response(await options.health.render(), { headers: { 'content-type': exposition } });
    },
    {
      response: { 200: t.String({ description: 'Prometheus text exposition format' }), 401: ErrorBody, 403: ErrorBody },
      detail: {
        tags: ['Service'],
        summary: "The service's own Prometheus metrics (METRICS_TOKEN bearer, or loopback callers when it is unset)",
        security: [{ bearerAuth: [] }, {}],
      },
    },
  );
