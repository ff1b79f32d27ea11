/**
 * IP addresses as 16 bytes (IPv4 as its IPv4-mapped IPv6 form), CIDR ranges, and the ranges an outbound request to a
 * user-supplied URL must not reach unless the operator allows them (private, loopback, link-local, metadata ...).
 * Pure code: no DNS, no runtime APIs.
 */

export type IpBytes = Uint8Array; // always 16 bytes

export interface IpAddress {
  version: 4 | 6;
  /** 16 bytes; an IPv4 address is stored as ::ffff:a.b.c.d so one range table covers both families. */
  bytes: IpBytes;
}

/**
 * Strict dotted-quad only (what DNS answers and the WHATWG URL parser's canonical form look like). Numeric tricks
 * such as `2130706433`, `0x7f.1` or `0177.0.0.1` are canonicalised by `new URL()` before they reach this; here they
 * are refused as "not an address" and would go to DNS, which cannot resolve them either.
 */
export function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    out[i] = Number(part);
  }
  return out;
}

/** RFC 4291 text form, with an optional trailing dotted quad; zone ids (`%eth0`) are refused. */
export function parseIpv6(text: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let head = text;
  let tail4: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    tail4 = parseIpv4(text.slice(lastColon + 1));
    if (!tail4) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    const group = all[i]!;
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    const value = parseInt(group, 16);
    out[i * 2] = value >> 8;
    out[i * 2 + 1] = value & 0xff;
  }
  if (tail4) out.set(tail4, 12);
  return out;
}

const mapped = (v4: Uint8Array): Uint8Array => {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out.set(v4, 12);
  return out;
};

/** An address as written in a URL host (`[::1]` brackets allowed) or a DNS answer; null for a name. */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4) return { version: 4, bytes: mapped(v4) };
  const v6 = bare.includes(':') ? parseIpv6(bare) : null;
  return v6 ? { version: 6, bytes: v6 } : null;
}

export function formatIp(address: IpAddress): string {
  const b = address.bytes;
  if (address.version === 4) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i]! << 8) | b[i + 1]!).toString(16));
  return groups.join(':');
}

export interface Cidr {
  bytes: IpBytes;
  /** Prefix length over the 16-byte form (an IPv4 /8 is /104 here). */
  bits: number;
  label: string;
}

/** `10.0.0.0/8`, `fc00::/7`, or a single address (a /32 or /128). */
export function parseCidr(text: string, label = text): Cidr | null {
  const [addressText, bitsText, extra] = text.trim().split('/');
  if (extra !== undefined || !addressText) return null;
  const address = parseIp(addressText);
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (bits > max) return null;
  return { bytes: address.bytes, bits: address.version === 4 ? bits + 96 : bits, label };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  let remaining = cidr.bits;
  for (let i = 0; i < 16 && remaining > 0; i++, remaining -= 8) {
    const mask = remaining >= 8 ? 0xff : (0xff << (8 - remaining)) & 0xff;
    if ((cidr.bytes[i]! & mask) !== (address.bytes[i]! & mask)) return false;
  }
  return true;
}

const range = (text: string, label: string): Cidr => parseCidr(text, label)!;

/** Ranges that are never a tenant's public endpoint. IPv4 entries also cover their IPv4-mapped IPv6 form (same bytes). */
export const refusedRanges: readonly Cidr[] = [
  range('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  range('10.0.0.0/8', 'private (10.0.0.0/8)'),
  range('100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'),
  range('127.0.0.0/8', 'loopback (127.0.0.0/8)'),
  range('169.254.0.0/16', 'link-local, cloud metadata (169.254.0.0/16)'),
  range('172.16.0.0/12', 'private (172.16.0.0/12)'),
  range('192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'),
  range('192.0.2.0/24', 'documentation (192.0.2.0/24)'),
  range('192.168.0.0/16', 'private (192.168.0.0/16)'),
  range('198.18.0.0/15', 'benchmarking (198.18.0.0/15)'),
  range('198.51.100.0/24', 'documentation (198.51.100.0/24)'),
  range('203.0.113.0/24', 'documentation (203.0.113.0/24)'),
  range('224.0.0.0/4', 'multicast (224.0.0.0/4)'),
  range('240.0.0.0/4', 'reserved (240.0.0.0/4)'),
  range('::/128', 'unspecified (::)'),
  range('::1/128', 'loopback (::1)'),
  // IPv4-compatible (deprecated) and the remaining reserved low block; the mapped block is judged by its IPv4 part.
  range('::/96', 'IPv4-compatible IPv6 (::/96)'),
  range('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48)'),
  range('100::/64', 'discard-only (100::/64)'),
  range('2001:db8::/32', 'documentation (2001:db8::/32)'),
  range('fc00::/7', 'unique local (fc00::/7)'),
  range('fe80::/10', 'link-local (fe80::/10)'),
  range('fec0::/10', 'site-local (fec0::/10)'),
  range('ff00::/8', 'multicast (ff00::/8)'),
];

/** IPv6 forms that carry an IPv4 address inside: NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach that IPv4 host. */
function embeddedIpv4(address: IpAddress): IpAddress | null {
  const b = address.bytes;
  if (address.version !== 6) return null;
  if (cidrContains(range('::ffff:0:0/96', ''), address)) return { version: 4, bytes: b };
  if (cidrContains(range('64:ff9b::/96', ''), address)) return { version: 4, bytes: mapped(b.slice(12, 16)) };
  if (cidrContains(range('2002::/16', ''), address)) return { version: 4, bytes: mapped(b.slice(2, 6)) };
  return null;
}

/** Why an address is not a public endpoint, or null when it is. */
export function refusalReason(address: IpAddress): string | null {
  const inner = embeddedIpv4(address);
  if (inner) {
    const reason = refusalReason(inner);
    return reason ? `${reason}, written as IPv6` : null;
  }
  return refusedRanges.find((cidr) => cidrContains(cidr, address))?.label ?? null;
}

/** A socket or header address without brackets or an IPv6 zone id (`%eth0`). */
const bareAddress = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/** An address parsed, an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`, how dual-stack sockets report IPv4 peers) as IPv4. */
export function parseAddress(text: string): IpAddress | null {
  const parsed = parseIp(bareAddress(text));
  if (!parsed || parsed.version === 4) return parsed;
  const mapped = parsed.bytes.subarray(0, 10).every((byte) => byte === 0) && parsed.bytes[10] === 0xff && parsed.bytes[11] === 0xff;
  return mapped ? { version: 4, bytes: parsed.bytes } : parsed;
}

/**
 * A stable key for per-address counting: IPv4 as is (an IPv4-mapped IPv6 address unwrapped), IPv6 as its /64 (a
 * client usually holds a whole /64: counting each of its addresses would let every guess use a new one).
 */
export function addressKey(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return bareAddress(address).slice(0, 64);
  if (parsed.version === 4) return formatIp(parsed);
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((parsed.bytes[i]! << 8) | parsed.bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
