/** The DNS port: every address a host name resolves to (A and AAAA), so outbound requests can check each before connecting. */
import { defineCapability } from '../kernel/define-capability.ts';

export interface DnsResolver {
  /** All addresses of `hostname` as text; rejects when the name does not resolve. */
  resolve(hostname: string): Promise<string[]>;
}

export const dnsResolverPort = defineCapability<DnsResolver>({ id: 'port.dnsResolver', cardinality: 'one' });
