/** The ui-admin plugin in the real service: the index on the UI's paths, hashed assets, /ui-config.json, the off switch. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { StaticAssets } from 'loadplane/plugin';
import { startTestService, type TestService } from '../../tests/helpers/test-service.ts';
import { createAssetStore } from './asset-store.ts';
import { uiRoutes } from './ui-routes.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/main-ab12cd34.js"></script></head><body><div id="root"></div></body></html>';
/** Big and repetitive enough that gzip pays. */
const SCRIPT = `console.log(${JSON.stringify('loadplane '.repeat(2000))});\n`;
const TIMEOUT = 60_000;

/** The host's static-assets port over a directory of our own as the `ui` root (the host's reads ui/dist). */
function distAssets(directory: string): StaticAssets {
  return {
    async read(root, path) {
      const file = resolve(directory, path);
      if (root !== 'ui' || !file.startsWith(resolve(directory) + sep)) return null;
      return readFile(file).then((bytes) => new Uint8Array(bytes), () => null);
    },
  };
}

let dist: string;
let ts: TestService;

async function writeDist(directory: string) {
  await mkdir(join(directory, 'assets'), { recursive: true });
  await writeFile(join(directory, 'index.html'), INDEX);
  await writeFile(join(directory, 'assets/main-ab12cd34.js'), SCRIPT);
  await writeFile(join(directory, 'assets/tiny-0f0f0f0f.css'), 'body{margin:0}');
  await writeFile(join(directory, 'assets/dashboard-page-1a2b3c4d.js'), 'import"/assets/chart-5e6f7a8b.js";export default 1;');
  await writeFile(join(directory, 'assets/chart-5e6f7a8b.js'), 'export const chart = 1;');
  // As ui/build.ts writes it; one entry names a URL that is not a chunk's, which the server leaves out.
  await writeFile(
    join(directory, 'route-preloads.json'),
    JSON.stringify({
      routes: [
        { pattern: '/dashboards/:id', files: ['/assets/dashboard-page-1a2b3c4d.js', '/assets/chart-5e6f7a8b.js', '"><script>x</script>'] },
        { pattern: '/runs', files: ['/assets/chart-5e6f7a8b.js'] },
      ],
    }),
  );
  await writeFile(join(directory, '.source-hash'), 'not served\n');
}

/** The index as served: the UI's config inlined as a data block at the end of the head, after the page's preloads. */
function served(links: string[] = []): string {
  const config = JSON.stringify({ authority: 'http://localhost:8080/auth/realms/loadplane', client_id: 'loadplane-ui', api_base_url: '/api/v1' });
  const at = INDEX.indexOf('</head>');
  const preloads = links.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join('');
  return `${INDEX.slice(0, at)}${preloads}<script type="application/json" id="loadplane-ui-config">${config.slice(0, -1)},"version":"VERSION"}</script>${INDEX.slice(at)}`;
}
const withoutVersion = (html: string) => html.replace(/"version":"[^"]*"/, '"version":"VERSION"');

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'loadplane-ui-dist-'));
  await writeDist(dist);
  ts = await startTestService({ boot: { assets: distAssets(dist) } });
}, TIMEOUT);
afterAll(async () => {
  await ts?.stop();
  await rm(dist, { recursive: true, force: true });
}, TIMEOUT);

const get = (path: string, headers: Record<string, string> = {}) => ts.request(path, { headers });

describe('the index answers the UI\'s own paths', () => {
  test('/ and deep links answer index.html, revalidated every time, with the security headers', async () => {
    for (const path of ['/runs/abc', '/tests/7f0c/edit', '/settings/api-tokens', '/signin-callback?code=x&state=y', '/audit-log', '/machines']) {
      const response = await get(path);
      expect(`${path} ${response.status}`).toBe(`${path} 200`);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(withoutVersion(await response.text())).toBe(served());
    }
    const csp = (await get('/runs/abc')).headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
    expect(directives).toMatchObject({
      'default-src': "'self'",
      'connect-src': "'self' http://localhost:8080",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'frame-ancestors': "'none'",
      'frame-src': 'http://localhost:8080',
      'base-uri': "'self'",
      'form-action': "'self' http://localhost:8080",
    });
    expect(directives['script-src']).toBeUndefined();
  });

  test("a page's own chunks are named for preloading (/ shows /runs), and the config read inline equals /ui-config.json", async () => {
    const dashboard = await (await get('/dashboards/0b7e')).text();
    expect(withoutVersion(dashboard)).toBe(served(['/assets/dashboard-page-1a2b3c4d.js', '/assets/chart-5e6f7a8b.js']));
    for (const href of [...dashboard.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((match) => match[1]!)) {
      expect(`${href} ${(await get(href)).status}`).toBe(`${href} 200`);
    }
    expect(withoutVersion(await (await get('/')).text())).toBe(served(['/assets/chart-5e6f7a8b.js']));
    expect(withoutVersion(await (await get('/runs/')).text())).toBe(served(['/assets/chart-5e6f7a8b.js']));
    const inline = /<script type="application\/json" id="loadplane-ui-config">(.*?)<\/script>/.exec(dashboard)![1]!;
    expect(JSON.parse(inline)).toEqual(await (await get('/ui-config.json')).json());
  });

  test('the index carries an ETag and answers 304 to it', async () => {
    const etag = (await get('/machines')).headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await get('/dashboards', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('no-cache');
  });

  test('unknown paths and the service\'s own stay as they were', async () => {
    for (const path of ['/nope', '/runsx', '/index.html', '/.source-hash', '/assets/missing-00000000.js', '/assets/.source-hash']) {
      const response = await get(path);
      expect(`${path} ${response.status}`).toBe(`${path} 404`);
      expect(response.headers.get('content-type')).toStartWith('application/json');
    }
    const api = await get('/api/v1/nope');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'not_found' });
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/auth/realms/loadplane/.well-known/openid-configuration')).status).toBe(200);
    expect((await get('/swagger-ui/')).headers.get('content-type')).toStartWith('text/html');
    expect((await get('/metrics')).status).toBe(401);
  });

  test('the UI\'s routes are not in the OpenAPI document', async () => {
    const document = (await (await get('/swagger-ui/openapi.json')).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !path.startsWith('/api/v1/') && path !== '/healthz')).toEqual([]);
  });
});

describe('assets', () => {
  test('a hashed asset is immutable, typed, and gzipped for a client that takes it', async () => {
    const plain = await get('/assets/main-ab12cd34.js');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('vary')).toBe('accept-encoding');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);

    const zipped = await get('/assets/main-ab12cd34.js', { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(SCRIPT.length / 10);
    expect(new TextDecoder().decode(gunzipSync(bytes))).toBe(SCRIPT);

    const refused = await get('/assets/main-ab12cd34.js', { 'accept-encoding': 'gzip;q=0' });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  test('a small file goes as it is; its type follows its extension', async () => {
    const css = await get('/assets/tiny-0f0f0f0f.css', { 'accept-encoding': 'gzip' });
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(await css.text()).toBe('body{margin:0}');
  });
});

describe('/ui-config.json', () => {
  test('names the issuer, the public client and the API base', async () => {
    const response = await get('/ui-config.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const body = await response.json();
    expect(body).toEqual({
      authority: 'http://localhost:8080/auth/realms/loadplane',
      client_id: 'loadplane-ui',
      api_base_url: '/api/v1',
      version: expect.any(String),
    });
    // The authority is the embedded IdP's real issuer, so sign-in starts from its discovery document.
    const discovery = await (await get('/auth/realms/loadplane/.well-known/openid-configuration')).json();
    expect(discovery.issuer).toBe(body.authority);
  });
});

describe('/favicon.ico', () => {
  test('answers an SVG icon, so no page of the origin logs a 404 for it', async () => {
    const response = await get('/favicon.ico');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toStartWith('<svg');
  });
});

describe('without a build', () => {
  test('the UI\'s paths answer a 503 page that says how to build it; assets 404', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'loadplane-ui-none-'));
    try {
      const routes = uiRoutes(
        { authority: 'http://localhost:8080/auth/realms/loadplane', clientId: 'loadplane-ui', apiBaseUrl: '/api/v1', version: '1' },
        createAssetStore(distAssets(join(empty, 'dist'))),
      );
      const response = await routes.handle(new Request('http://localhost/runs/abc'));
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('npm run build');
      expect((await routes.handle(new Request('http://localhost/assets/main-ab12cd34.js'))).status).toBe(404);
      // Once built, the next request finds it without a restart.
      await writeDist(join(empty, 'dist'));
      expect((await routes.handle(new Request('http://localhost/runs/abc'))).status).toBe(200);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  test('a host without the static-assets port answers the same page', async () => {
    const routes = uiRoutes({ authority: 'https://id.example.com/realms/x', clientId: 'c', apiBaseUrl: '/api/v1', version: '1' }, createAssetStore(null));
    expect((await routes.handle(new Request('http://localhost/'))).status).toBe(503);
  });
});

describe('UI_ENABLED=false', () => {
  test('no UI: its paths answer 404 as any unknown path', async () => {
    const off = await startTestService({ env: { UI_ENABLED: 'false' }, boot: { assets: distAssets(dist) } });
    try {
      expect(off.service.plugins.map((plugin) => plugin.name)).not.toContain('ui-admin');
      for (const path of ['/', '/runs/abc', '/ui-config.json', '/assets/main-ab12cd34.js']) {
        expect(`${path} ${(await off.request(path)).status}`).toBe(`${path} 404`);
      }
    } finally {
      await off.stop();
    }
  }, TIMEOUT);
});
