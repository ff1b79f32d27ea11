/** JSON answers in the shapes Keycloak uses: OAuth `{error, error_description}` and token responses that are never cached. */

/** RFC 6749 5.1: token responses and errors carry these so no proxy or browser keeps a token. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { error, error_description: description }, { ...NO_STORE, ...headers });
}

/** Keycloak's answer for any path under a realm it does not have. */
export const realmNotFound = () => jsonResponse(404, { error: 'Realm does not exist', error_description: 'Realm does not exist' });
