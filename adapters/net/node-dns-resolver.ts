/** DnsResolver on node:dns (Bun, Node and Deno's node compatibility): the system resolver's A and AAAA answers, all of them. */
import { lookup } from 'node:dns/promises';
import type { DnsResolver } from '../../core/ports/dns-resolver.ts';

export function createNodeDnsResolver(): DnsResolver {
  return {
    async resolve(hostname) {
      const answers = await lookup(hostname, { all: true, verbatim: true });
      return answers.map((answer) => answer.address);
    },
  };
}
