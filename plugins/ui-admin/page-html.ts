/**
 * The index as one page's HTML: `modulepreload` links for the chunks of the page the URL names (from the build's
 * route-preloads.json) and the UI's config inlined, so a cold load asks for its page's code beside the app's entry and
 * starts signing in without a round trip for /ui-config.json. Both only speed the start: the app loads the same code
 * and config itself when they are missing.
 */

/** The build's manifest (ui/route-preloads.ts writes it). */
export interface RoutePreloads {
  routes: { pattern: string; files: string[] }[];
}

/** The id the app reads its inlined config from (ui/src/auth/ui-config.ts). */
export const UI_CONFIG_ELEMENT_ID = 'loadplane-ui-config';

/** A chunk's URL as the build names it: nothing to escape in an attribute. */
const CHUNK_URL = /^\/assets\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.js$/;

/** Paths that show another route's page: the router redirects them on load. */
const redirects: Record<string, string> = { '/': '/runs', '/settings': '/settings/workspace' };

/** Whether a path matches a pattern of fixed segments and `:name` parameters, as the UI's router matches them. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = (pathname.replace(/\/+$/, '') || '/').split('/');
  return want.length === have.length && want.every((segment, i) => (segment.startsWith(':') ? have[i] !== '' : segment === have[i]));
}

/** The chunks of the page at `pathname` (none for a path without a page of its own, or a manifest that does not parse). */
export function preloadsFor(manifest: unknown, pathname: string): string[] {
  const routes = (manifest as Partial<RoutePreloads> | null)?.routes;
  if (!Array.isArray(routes)) return [];
  const path = redirects[pathname.replace(/\/+$/, '') || '/'] ?? pathname;
  const route = routes.find((one) => typeof one?.pattern === 'string' && matchesPattern(one.pattern, path));
  return Array.isArray(route?.files) ? route.files.filter((file): file is string => typeof file === 'string' && CHUNK_URL.test(file)).slice(0, 32) : [];
}

/** JSON inside a script element: `<` escaped so no `</script>` or comment can end the element early. */
function scriptJson(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The index with the page's preload links and the inlined config put at the end of its head. */
export function pageHtml(index: string, options: { preloads: readonly string[]; uiConfigJson: string }): string {
  const links = options.preloads.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`).join('');
  // A data block: a script element of type application/json is never run, so the page's CSP has nothing to allow.
  const config = `<script type="application/json" id="${UI_CONFIG_ELEMENT_ID}">${scriptJson(options.uiConfigJson)}</script>`;
  const at = index.indexOf('</head>');
  return at < 0 ? index : `${index.slice(0, at)}${links}${config}${index.slice(at)}`;
}
