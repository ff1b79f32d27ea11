/**
 * The code each page of the router needs, written beside the build (route-preloads.json) so the server can name it in
 * the page's HTML as `modulepreload` links: a cold load then fetches a page's chunks beside the app's entry instead of
 * after the entry ran (the dashboard's page and chart code arrived ~70 ms and ~140 ms after the document before).
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export interface RoutePreloads {
  /** A pattern as the router writes it (`/dashboards/:id`) and the chunks its page loads, in the order to ask for them. */
  routes: { pattern: string; files: string[] }[];
}

/** `['/dashboards/:id', () => import('../pages/dashboards/dashboard-page')]` in routes.tsx: each pattern and its module's name. */
export function routeModules(routesSource: string): { pattern: string; module: string }[] {
  const found: { pattern: string; module: string }[] = [];
  for (const match of routesSource.matchAll(/\[\s*'(\/[^']*)'\s*,\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)\s*\]/g)) {
    found.push({ pattern: match[1]!, module: basename(match[2]!) });
  }
  return found;
}

/** The chunks a built chunk names: static imports (`from"/assets/x.js"`, `import"/assets/x.js"`) and dynamic ones. */
export function importsOf(code: string): { static: string[]; dynamic: string[] } {
  const statics = new Set<string>();
  const dynamics = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)"(\/assets\/[^"]+\.js)"/g)) statics.add(match[1]!);
  for (const match of code.matchAll(/\bimport\(\s*"(\/assets\/[^"]+\.js)"\s*\)/g)) dynamics.add(match[1]!);
  return { static: [...statics], dynamic: [...dynamics] };
}

/**
 * The chunks a page needs, given every built chunk's code by its URL: the page's chunk, what it imports statically (all
 * the way down), and the chunks its own code imports dynamically (the chart code a page loads while its queries run),
 * with theirs. The app's entry is left out: the HTML loads it already.
 */
export function pageChunks(code: ReadonlyMap<string, string>, page: string, entry: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>([entry]);
  const visit = (url: string, followDynamic: boolean) => {
    if (seen.has(url) || !code.has(url)) return;
    seen.add(url);
    out.push(url);
    const imports = importsOf(code.get(url)!);
    for (const next of imports.static) visit(next, false);
    if (followDynamic) for (const next of imports.dynamic) visit(next, false);
  };
  visit(page, true);
  return out;
}

/** Computes the manifest from a finished build in `outDir` and the router's source. */
export async function routePreloads(outDir: string, routesSource: string): Promise<RoutePreloads> {
  const names = (await readdir(join(outDir, 'assets'))).filter((name) => name.endsWith('.js'));
  const code = new Map<string, string>();
  for (const name of names) code.set(`/assets/${name}`, await readFile(join(outDir, 'assets', name), 'utf8'));
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  const entry = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? '';
  const routes: RoutePreloads['routes'] = [];
  for (const { pattern, module } of routeModules(routesSource)) {
    // Bun names a lazily imported module's chunk `<module>-<hash>.js`.
    const chunk = names.find((name) => new RegExp(`^${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[a-z0-9]+\\.js$`).test(name));
    if (!chunk) throw new Error(`ui: no chunk for ${pattern} (module ${module}) in the build`);
    routes.push({ pattern, files: pageChunks(code, `/assets/${chunk}`, entry) });
  }
  return { routes };
}
