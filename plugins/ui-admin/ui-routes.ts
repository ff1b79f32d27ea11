/**
 * The UI's HTTP surface: its index on `/` and on every path its router owns, its hashed assets, and /ui-config.json (how
 * it signs in). Kept out of the OpenAPI document: these are pages, not the API.
 */
import { Elysia } from 'elysia';
import { acceptsGzip, type AssetStore } from './asset-store.ts';
import type { UiAdminConfig } from './config.ts';
import { contentTypeOf, isCompressible } from './content-types.ts';
import { faviconSvg } from './favicon.ts';
import { pageHtml, preloadsFor } from './page-html.ts';
import { htmlSecurityHeaders } from './security-headers.ts';
import { uiRoutePatterns } from './ui-paths.ts';
import { uiUnavailablePage } from './unavailable-page.ts';

const hidden = { detail: { hide: true } };

/** Hashed names: a new build makes new names, so an asset may be kept for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `"${Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

const notFound = (path: string) =>
  new Response(JSON.stringify({ error: 'not_found', message: `no route for GET ${path}` }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });

export function uiRoutes(config: UiAdminConfig, store: AssetStore) {
  const securityHeaders = htmlSecurityHeaders(config.authority);
  const uiConfig = JSON.stringify({
    authority: config.authority,
    client_id: config.clientId,
    api_base_url: config.apiBaseUrl,
    version: config.version,
  });

  /** The index for any of the router's paths; revalidated every time (no-cache), so a new build shows at once. */
  const index = async ({ request }: { request: Request }) => {
    const [stored, manifest] = await Promise.all([store.index(), store.routePreloads()]);
    if (!stored) {
      return new Response(uiUnavailablePage(), {
        status: 503,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'retry-after': '10',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          'referrer-policy': 'no-referrer',
        },
      });
    }
    // The page's own chunks named for preloading and the config inlined: the ETag follows the page's bytes.
    const html = pageHtml(new TextDecoder().decode(stored), { preloads: preloadsFor(manifest, new URL(request.url).pathname), uiConfigJson: uiConfig });
    const bytes = new TextEncoder().encode(html);
    const etag = await etagOf(bytes);
    const headers = { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', etag };
    if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
    return new Response(bytes as Uint8Array<ArrayBuffer>, { headers });
  };

  const app = new Elysia({ name: 'ui-admin' })
    .get(
      '/favicon.ico',
      () => new Response(faviconSvg, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }),
      hidden,
    )
    .get(
      '/ui-config.json',
      () => new Response(uiConfig, { headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' } }),
      hidden,
    )
    .get(
      '/assets/:name',
      async ({ params, request }) => {
        const asset = await store.asset(params.name);
        if (!asset) return notFound(new URL(request.url).pathname);
        const headers: Record<string, string> = { 'content-type': contentTypeOf(params.name), 'cache-control': IMMUTABLE };
        // Caches must keep the plain and the compressed answer apart.
        if (isCompressible(params.name)) headers.vary = 'accept-encoding';
        if (asset.gzip && acceptsGzip(request.headers.get('accept-encoding'))) {
          return new Response(asset.gzip as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'content-encoding': 'gzip' } });
        }
        return new Response(asset.bytes as Uint8Array<ArrayBuffer>, { headers });
      },
      hidden,
    );
  // Elysia registers on the instance itself; the widened type of each call is not needed here.
  for (const pattern of uiRoutePatterns) app.get(pattern, index, hidden);
  return app;
}
