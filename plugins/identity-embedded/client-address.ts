/**
 * The address a sign-in came from, for the per-address limit: the client address the app noted on arrival (the socket's
 * peer, or what a proxy named in TRUSTED_PROXIES recorded in X-Forwarded-For), as its counting key.
 */
import { addressKey, clientAddressOf } from 'loadplane/plugin';

/** The client's address key, or null for a request that came in-process (no socket), which has no address to limit. */
export function clientAddress(request: Request): string | null {
  const address = clientAddressOf(request);
  return address ? addressKey(address) : null;
}
