/** ui/route-preloads.ts: the chunks each page of the real router needs, from a real build of the app (ui/dist). */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildUiIfStale } from '../../ui/build.ts';
import { importsOf, pageChunks, ROUTE_PRELOADS_FILE, routeModules, type RoutePreloads } from '../../ui/route-preloads.ts';

const ui = join(import.meta.dir, '../../ui');

describe('the router and built chunks, read', () => {
  test("every route of routes.tsx with its module's name", async () => {
    const routes = routeModules(await readFile(join(ui, 'src/app/routes.tsx'), 'utf8'));
    expect(routes.length).toBeGreaterThanOrEqual(17);
    expect(routes).toContainEqual({ pattern: '/dashboards/:id', module: 'dashboard-page' });
    expect(routes).toContainEqual({ pattern: '/settings/api-tokens', module: 'api-tokens-page' });
  });

  test('static and dynamic imports of a minified chunk', () => {
    const code = 'import{a as b}from"/assets/index-aa.js";import"/assets/side-bb.js";var x=()=>import("/assets/chart-cc.js");';
    expect(importsOf(code)).toEqual({ static: ['/assets/index-aa.js', '/assets/side-bb.js'], dynamic: ['/assets/chart-cc.js'] });
  });

  test("a page's closure: its static imports all the way down, its own dynamic ones, never the entry, each once", () => {
    const code = new Map([
      ['/assets/entry.js', ''],
      ['/assets/page.js', 'import"/assets/entry.js";import"/assets/shared.js";import("/assets/chart.js")'],
      ['/assets/shared.js', 'import"/assets/deep.js";import("/assets/editor.js")'],
      ['/assets/deep.js', 'import"/assets/shared.js"'],
      ['/assets/chart.js', 'import"/assets/deep.js"'],
      ['/assets/editor.js', ''],
    ]);
    expect(pageChunks(code, '/assets/page.js', '/assets/entry.js')).toEqual(['/assets/page.js', '/assets/shared.js', '/assets/deep.js', '/assets/chart.js']);
  });
});

describe('the real build', () => {
  let manifest: RoutePreloads;
  beforeAll(async () => {
    await buildUiIfStale();
    manifest = JSON.parse(await readFile(join(ui, 'dist', ROUTE_PRELOADS_FILE), 'utf8')) as RoutePreloads;
  }, 120_000);

  test('names existing chunks for every route; the dashboard gets its page and its chart code', () => {
    expect(manifest.routes.length).toBeGreaterThanOrEqual(17);
    for (const route of manifest.routes) {
      expect(route.files.length).toBeGreaterThan(0);
      for (const file of route.files) expect(`${route.pattern} ${file} ${existsSync(join(ui, 'dist', file))}`).toBe(`${route.pattern} ${file} true`);
    }
    const dashboard = manifest.routes.find((route) => route.pattern === '/dashboards/:id')!;
    expect(dashboard.files[0]).toMatch(/^\/assets\/dashboard-page-[a-z0-9]+\.js$/);
    expect(dashboard.files.some((file) => /^\/assets\/time-series-chart-[a-z0-9]+\.js$/.test(file))).toBe(true);
  });
});
