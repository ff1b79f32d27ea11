/**
 * The client address of a request, for per-address limits (IdP brute force, failed token lookups): the socket's peer,
 * or, when that peer is a proxy the operator trusts (TRUSTED_PROXIES), the address that proxy recorded in
 * X-Forwarded-For. Noted by the app when the request arrives, so code that only holds the Request can use it.
 * In-process requests (`app.handle`) have no address: per-address limits do not apply to them.
 */
import { type Cidr, cidrContains, formatIp, type IpAddress, parseAddress } from '../domain/ip-address.ts';

const peers = new WeakMap<Request, string>();
const clients = new WeakMap<Request, string>();

/** For runtimes whose server hands the peer to the request handler instead of answering `requestIP`. */
export function rememberPeerAddress(request: Request, address: string): void {
  peers.set(request, address);
}

/**
 * X-Forwarded-For is read right to left, the way proxies append to it: every hop that is a trusted proxy forwarded the
 * one before it; the first hop that is not trusted is the client. A header a client wrote itself sits left of the
 * first trusted proxy's entry and is never reached. An entry that is not an address stops the walk at the proxy that
 * forwarded it, so garbage never picks the key a client's failures count under.
 */
export function resolveClientAddress(peer: string, forwardedFor: string | null, trusted: readonly Cidr[]): string {
  const isTrusted = (address: IpAddress) => trusted.some((cidr) => cidrContains(cidr, address));
  let current = parseAddress(peer);
  if (!current) return peer;
  if (!forwardedFor || !isTrusted(current)) return formatIp(current);
  const hops = forwardedFor.split(',').map((hop) => hop.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0 && isTrusted(current); i--) {
    const hop = parseAddress(hops[i]!);
    if (!hop) break;
    current = hop;
  }
  return formatIp(current);
}

export function noteClientAddress(
  request: Request,
  server: { requestIP(request: Request): { address: string } | null } | null,
  trustedProxies: readonly Cidr[] = [],
): void {
  const peer = server?.requestIP(request)?.address ?? peers.get(request);
  if (peer) clients.set(request, resolveClientAddress(peer, request.headers.get('x-forwarded-for'), trustedProxies));
}

/** The client's address as noted on arrival, or null for an in-process request. */
export const clientAddressOf = (request: Request): string | null => clients.get(request) ?? null;
