/**
 * The address a sign-in came from, for the per-address limit: the socket's peer. X-Forwarded-For is not read: the
 * service has no trusted-proxy setting, and a header anyone can send must not choose the key its own guesses count
 * under. Behind a reverse proxy every client shares the proxy's address (see the README).
 */

interface SocketAddressSource {
  requestIP(request: Request): { address: string } | null;
}

/** IPv6 clients get a /64 each from their provider: the whole prefix is one address here, or each guess could use a new one. */
function ipv6Prefix(address: string): string | null {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  if (tail === undefined && left.length !== 8) return null;
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return `${groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** A stable key for an address: IPv4 as is (an IPv4-mapped IPv6 address unwrapped), IPv6 as its /64. */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  return ipv6Prefix(bare) ?? bare.slice(0, 64);
}

/** The client's address key, or null for a request that came in-process (no socket), which has no address to limit. */
export function clientAddress(server: SocketAddressSource | null | undefined, request: Request): string | null {
  const peer = server?.requestIP(request);
  return peer?.address ? addressKey(peer.address) : null;
}
