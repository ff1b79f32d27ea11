/**
 * Decides whether the service may send a request to a user-supplied URL: http(s) only, and every address the host
 * resolves to must be public unless WEBHOOK_ALLOW_HOSTS allows it. Checked at creation (a clear 400) and again at
 * every delivery, whose connection then goes to one of the checked addresses (a name may resolve elsewhere by then).
 */
import { type Cidr, cidrContains, formatIp, type IpAddress, parseCidr, parseIp, refusalReason } from '../../domain/ip-address.ts';
import type { DnsResolver } from '../../ports/dns-resolver.ts';

export interface AllowList {
  cidrs: readonly Cidr[];
  /** Lower-case names; `*.example.internal` allows every name below that domain. */
  hosts: readonly string[];
}

/** WEBHOOK_ALLOW_HOSTS entries: CIDRs or single addresses, else host names. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const cidrs: Cidr[] = [];
  const hosts: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) cidrs.push(cidr);
    else hosts.push(entry.replace(/\.$/, ''));
  }
  return { cidrs, hosts };
}

export type UrlCheck =
  | { ok: true; url: URL; hostname: string; addresses: IpAddress[] }
  | { ok: false; reason: string };

export interface OutboundUrlGuard {
  /** Parses and resolves `url`; ok with the addresses it may connect to (all checked), or the reason it may not. */
  check(url: string): Promise<UrlCheck>;
}

const hostAllowed = (hosts: readonly string[], hostname: string) =>
  hosts.some((entry) => (entry.startsWith('*.') ? hostname.endsWith(entry.slice(1)) : hostname === entry));

export function createOutboundUrlGuard(deps: { resolver: DnsResolver; allow: AllowList }): OutboundUrlGuard {
  const addressAllowed = (address: IpAddress) => deps.allow.cidrs.some((cidr) => cidrContains(cidr, address));

  return {
    async check(text) {
      let url: URL;
      try {
        // The WHATWG parser turns 2130706433, 0x7f.1, 0177.0.0.1 and ①②⑦.0.0.1 into 127.0.0.1, so they are judged as such.
        url = new URL(text);
      } catch {
        return { ok: false, reason: 'url is not a valid absolute URL' };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return { ok: false, reason: `url must use http or https, not ${url.protocol.replace(/:$/, '')}` };
      }
      if (url.username || url.password) return { ok: false, reason: 'url must not carry a user name or password' };
      const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
      if (!hostname) return { ok: false, reason: 'url has no host' };

      const literal = parseIp(hostname);
      const trustedName = !literal && hostAllowed(deps.allow.hosts, hostname);
      let addresses: IpAddress[];
      if (literal) {
        addresses = [literal];
      } else {
        let answers: string[];
        try {
          answers = await deps.resolver.resolve(hostname);
        } catch {
          return { ok: false, reason: `the host ${hostname} does not resolve` };
        }
        addresses = answers.map((answer) => parseIp(answer)).filter((address): address is IpAddress => address !== null);
        if (addresses.length === 0) return { ok: false, reason: `the host ${hostname} does not resolve` };
      }
      if (!trustedName) {
        // Every address, not just the first: a name with one public and one private answer could be steered to either.
        for (const address of addresses) {
          const reason = refusalReason(address);
          if (reason && !addressAllowed(address)) {
            const shown = literal ? hostname : `${hostname} resolves to ${formatIp(address)}, which`;
            return {
              ok: false,
              reason: `${shown} is a ${reason} address; webhooks may target it only when WEBHOOK_ALLOW_HOSTS allows it`,
            };
          }
        }
      }
      return { ok: true, url, hostname, addresses };
    },
  };
}
