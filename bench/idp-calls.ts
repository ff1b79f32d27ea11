/**
 * Counts requests to the identity provider while the authenticated list is under load.
 *
 * With the embedded IdP the token verifier fetches discovery and JWKS in-process (no socket to observe), so this check
 * runs the production shape instead: an API service with AUTH_URL pointing at an external provider (a second Loadplane
 * process with the embedded IdP), reached through a counting proxy on loopback. The verifier (plugins/identity-oidc)
 * is the same code in both shapes; only the transport of its fetches differs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from '../tests/helpers/service-process.ts';
import { type BenchSettings, startFilledService } from './filled-service.ts';
import { runWrk } from './wrk.ts';

export interface IdpCheck {
  ok: boolean;
  /** Requests the proxy forwarded while the API served the wrk run, by method and path. */
  duringRun: Record<string, number>;
  /** Requests the proxy forwarded before the run (token grant, first discovery + JWKS), by method and path. */
  beforeRun: Record<string, number>;
  apiRequests: number;
  requestsPerSecond: number;
  markdown: string;
}

function countingProxy() {
  let upstream = '';
  const counts = new Map<string, number>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const key = `${request.method} ${url.pathname}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const headers = new Headers(request.headers);
      headers.delete('host');
      const answer = await fetch(`${upstream}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
      // Bun's fetch has already decoded the body: do not pass on an encoding that no longer applies.
      const outHeaders = new Headers(answer.headers);
      outHeaders.delete('content-encoding');
      outHeaders.delete('content-length');
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: outHeaders });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    setUpstream(url: string) {
      upstream = url;
    },
    snapshot: () => Object.fromEntries(counts),
    stop: () => server.stop(true),
  };
}

function difference(after: Record<string, number>, before: Record<string, number>) {
  const changed: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) if (value - (before[key] ?? 0) > 0) changed[key] = value - (before[key] ?? 0);
  return changed;
}

export async function checkIdpCalls(settings: BenchSettings): Promise<IdpCheck> {
  const idpDir = await mkdtemp(join(tmpdir(), 'loadplane-bench-idp-'));
  const apiDir = await mkdtemp(join(tmpdir(), 'loadplane-bench-api-'));
  const proxy = countingProxy();
  const credentials = { username: 'admin', password: `bench-${crypto.randomUUID()}` };
  const clientSecret = `bench-${crypto.randomUUID()}`;
  let idp: Awaited<ReturnType<typeof startServiceProcess>> | null = null;
  try {
    // The IdP's issuer is the proxy's URL, so every token names it and the API fetches keys through it.
    idp = await startServiceProcess({
      env: {
        DATA_DIR: idpDir,
        PUBLIC_URL: proxy.url,
        LOCAL_AGENT: 'false',
        LOG_LEVEL: 'warn',
        AUTH_CLIENT_SECRET: clientSecret,
        BOOTSTRAP_ADMIN_USERNAME: credentials.username,
        BOOTSTRAP_ADMIN_PASSWORD: credentials.password,
      },
      timeoutMs: 120_000,
    });
    proxy.setUpstream(idp.url);
    const { service, token: freshToken } = await startFilledService(
      { DATA_DIR: apiDir, AUTH_URL: `${proxy.url}/auth`, AUTH_CLIENT_SECRET: clientSecret },
      credentials,
    );
    try {
      const token = await freshToken();
      const url = `${service.url}/api/v1/tests`;
      const wrk = { url, threads: settings.threads, connections: settings.connections, duration: settings.duration, headers: { authorization: `Bearer ${token}` } };
      // One request verifies the fresh token (signature against the cached keys); the run must add nothing.
      const first = await fetch(url, { headers: wrk.headers });
      if (first.status !== 200) throw new Error(`API through the external IdP answered ${first.status}: ${await first.text()}`);
      const beforeRun = proxy.snapshot();
      console.error(`  wrk ${url} (${settings.duration}) with the IdP behind a counting proxy`);
      const result = await runWrk(wrk);
      const duringRun = difference(proxy.snapshot(), beforeRun);
      if (result.non2xx > 0) throw new Error(`${result.non2xx} of ${result.requests} authenticated responses were not 2xx/3xx`);
      const total = Object.values(duringRun).reduce((a, b) => a + b, 0);
      const ok = total === 0;
      const list = (counts: Record<string, number>) =>
        Object.entries(counts).map(([key, n]) => `\`${key}\` x${n}`).join(', ') || 'none';
      const markdown = [
        `Identity-provider calls (API with \`AUTH_URL\` = an external IdP behind a counting proxy, PGlite, one \`${result.command.replace(/:\d+\//, ':<port>/')}\` run):`,
        `${result.requests.toLocaleString('en-US')} authenticated list requests (${Math.round(result.requestsPerSecond).toLocaleString('en-US')} req/s) caused **${total}** requests to the IdP${ok ? '' : ` (${list(duringRun)})`}.`,
        `Before the run, setup made: ${list(beforeRun)}.`,
      ].join(' ');
      return { ok, duringRun, beforeRun, apiRequests: result.requests, requestsPerSecond: result.requestsPerSecond, markdown };
    } finally {
      await service.stop();
    }
  } finally {
    await idp?.stop();
    proxy.stop();
    await rm(idpDir, { recursive: true, force: true });
    await rm(apiDir, { recursive: true, force: true });
  }
}
