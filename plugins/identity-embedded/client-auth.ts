/**
 * Authenticates the client at the token and logout endpoints: the confidential one by client_secret_basic or
 * client_secret_post; the public one (the UI) only names itself with `client_id` (auth method `none`), as Keycloak does.
 */
import { constantTimeEqualStrings } from './constant-time-equal.ts';
import { oauthError } from './oauth-responses.ts';
import { type ClientsConfig, findClient, type RealmClient } from './realm-clients.ts';

export type ClientAuthResult = { ok: true; clientId: string; client: RealmClient } | { ok: false; response: Response };

/** RFC 6749 2.3.1: Basic credentials are form-encoded before base64, so `+` and `%XX` must be decoded. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

function parseBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!match) return null;
  try {
    const decoded = atob(match[1]!);
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

export async function authenticateClient(
  request: Request,
  form: Record<string, string>,
  clients: ClientsConfig,
  realm: string,
): Promise<ClientAuthResult> {
  const header = request.headers.get('authorization');
  const usedBasic = header !== null && /^Basic\s/i.test(header);
  const fail = (description = 'Invalid client or Invalid client credentials') => ({
    ok: false as const,
    response: oauthError(401, 'invalid_client', description, usedBasic ? { 'www-authenticate': `Basic realm="${realm}"` } : {}),
  });

  let id: string | undefined;
  let secret: string | undefined;
  if (usedBasic) {
    const basic = parseBasic(header);
    if (!basic) return fail();
    // A body client_id naming another client than the header is an attempt to confuse us.
    if (form.client_id !== undefined && form.client_id !== basic.id) return fail();
    ({ id, secret } = basic);
  } else {
    id = form.client_id;
    secret = form.client_secret;
  }
  if (!id) return fail('Missing parameter: client_id');
  const client = findClient(clients, id);
  if (!client) return fail();
  // A public client has no secret to check: what keeps it honest is PKCE and its redirect URIs, checked by the grants.
  if (client.secret === null) return { ok: true, clientId: id, client };
  if (secret === undefined || !(await constantTimeEqualStrings(secret, client.secret))) return fail();
  return { ok: true, clientId: id, client };
}
