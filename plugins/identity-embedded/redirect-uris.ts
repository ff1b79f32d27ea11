/** Which redirect URIs a client may use, as Keycloak matches them: exact, or a prefix when the pattern ends in `*`. */

/** Dot segments and backslashes would let a wildcard's prefix lead elsewhere once the browser normalises the path. */
const AMBIGUOUS_PATH = /(^|[/\\])\.{1,2}([/\\?]|$)|\\/;

/** OAuth 2.0 3.1.2: absolute, http(s), no fragment; and nothing the browser would rewrite. */
export function isAcceptableRedirectUri(uri: string): boolean {
  try {
    const url = new URL(uri);
    // URL parsers treat %2e as a dot in path segments.
    const path = uri.split('?')[0]!.replace(/%2e/gi, '.');
    return (url.protocol === 'http:' || url.protocol === 'https:') && !uri.includes('#') && !AMBIGUOUS_PATH.test(path);
  } catch {
    return false;
  }
}

export function redirectUriAllowed(uri: string, patterns: readonly string[]): boolean {
  if (!isAcceptableRedirectUri(uri)) return false;
  return patterns.some((pattern) => (pattern.endsWith('*') ? uri.startsWith(pattern.slice(0, -1)) : uri === pattern));
}

/** Adds query parameters to a redirect URI, keeping the ones it already has. */
export function withQuery(uri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
