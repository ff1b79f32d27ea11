/** Which methods a path answers, from the registered routes: the base of 405 with Allow, OPTIONS, and 426 for a WebSocket path. */

export interface RouteEntry {
  method: string;
  path: string;
}

export interface PathMethods {
  /** Methods for the Allow header (HEAD wherever GET is). */
  allow: string[];
  /** The WebSocket route (its pattern) this path is, if any: a GET there must ask for the upgrade. */
  websocket: string | null;
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Builds the matcher once; routes with wildcards are left out (a catch-all would make every path "allowed"). */
export function createRouteMethods(routes: () => readonly RouteEntry[]) {
  let table: { pattern: RegExp; method: string; path: string; params: number }[] | null = null;
  const build = () =>
    routes()
      .filter((route) => !route.path.includes('*'))
      .map((route) => ({
        pattern: new RegExp(`^${trimSlash(route.path).split('/').map((part) => (part.startsWith(':') ? '[^/]+' : escape(part))).join('/')}$`),
        method: route.method.toUpperCase(),
        path: route.path,
        params: route.path.split('/').filter((part) => part.startsWith(':')).length,
      }));

  return (pathname: string): PathMethods => {
    table ??= build();
    const path = trimSlash(pathname);
    const methods = new Set<string>();
    let websocket: string | null = null;
    // The most specific patterns only: /members/invitations is its own resource, not /members/:userId.
    const matching = table.filter((entry) => entry.method !== 'ALL' && entry.pattern.test(path));
    const fewest = Math.min(...matching.map((entry) => entry.params));
    for (const entry of matching) {
      if (entry.params !== fewest) continue;
      if (entry.method === 'WS') websocket = entry.path;
      methods.add(entry.method === 'WS' ? 'GET' : entry.method);
    }
    if (methods.has('GET')) methods.add('HEAD');
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const allow = [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return { allow, websocket };
  };
}
