/** The address a client's failures count under: the socket's peer, or what a trusted proxy says in X-Forwarded-For. */
import { describe, expect, test } from 'bun:test';
import { addressKey, parseCidr } from '../domain/ip-address.ts';
import { clientAddressOf, noteClientAddress, rememberPeerAddress, resolveClientAddress } from './client-address.ts';

const cidrs = (...texts: string[]) => texts.map((text) => parseCidr(text)!);

describe('addressKey', () => {
  test('IPv4, and IPv4 mapped into IPv6, are the address itself', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  test('IPv6 counts per /64, however it is written', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('[2001:db8:1:2::1]')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('resolveClientAddress', () => {
  test('without trusted proxies the peer counts and X-Forwarded-For is ignored', () => {
    expect(resolveClientAddress('::ffff:127.0.0.1', '198.51.100.1', [])).toBe('127.0.0.1');
  });

  test('a peer that is not a trusted proxy cannot choose its address with the header', () => {
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', cidrs('10.0.0.0/8'))).toBe('203.0.113.9');
  });

  test('behind a trusted proxy the client is the hop the proxy appended', () => {
    expect(resolveClientAddress('10.0.0.2', '198.51.100.1', cidrs('10.0.0.0/8'))).toBe('198.51.100.1');
    expect(resolveClientAddress('::ffff:10.0.0.2', '198.51.100.1', cidrs('10.0.0.0/8'))).toBe('198.51.100.1');
  });

  test('what the client wrote itself, left of the proxy entries, is never reached', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the edge proxy appended the real address, an inner proxy its own.
    expect(resolveClientAddress('10.0.0.3', '1.2.3.4, 198.51.100.1, 10.0.0.2', cidrs('10.0.0.0/8'))).toBe('198.51.100.1');
  });

  test('a garbage hop stops the walk at the proxy that forwarded it', () => {
    expect(resolveClientAddress('10.0.0.2', 'not-an-address', cidrs('10.0.0.0/8'))).toBe('10.0.0.2');
    expect(resolveClientAddress('10.0.0.2', '198.51.100.1, 10.0.0.5, unknown', cidrs('10.0.0.0/8'))).toBe('10.0.0.2');
  });

  test('IPv6 proxies and clients', () => {
    expect(resolveClientAddress('fd00::2', '[2001:db8::7]', cidrs('fd00::/8'))).toBe('2001:db8:0:0:0:0:0:7');
  });

  test('only proxies all the way: the leftmost hop', () => {
    expect(resolveClientAddress('10.0.0.3', '10.0.0.1, 10.0.0.2', cidrs('10.0.0.0/8'))).toBe('10.0.0.1');
  });
});

describe('noteClientAddress', () => {
  const request = () => new Request('http://localhost/', { headers: { 'x-forwarded-for': '198.51.100.1' } });

  test('the socket peer from the server, resolved through trusted proxies', () => {
    const plain = request();
    noteClientAddress(plain, { requestIP: () => ({ address: '::ffff:127.0.0.1' }) });
    expect(clientAddressOf(plain)).toBe('127.0.0.1');
    const proxied = request();
    noteClientAddress(proxied, { requestIP: () => ({ address: '127.0.0.1' }) }, cidrs('127.0.0.1/32'));
    expect(clientAddressOf(proxied)).toBe('198.51.100.1');
  });

  test('a runtime that hands the peer to the handler (Deno) remembers it first', () => {
    const viaDeno = request();
    rememberPeerAddress(viaDeno, '192.0.2.10');
    noteClientAddress(viaDeno, null);
    expect(clientAddressOf(viaDeno)).toBe('192.0.2.10');
  });

  test('no socket (an in-process request): no address', () => {
    const inProcess = request();
    noteClientAddress(inProcess, null);
    expect(clientAddressOf(inProcess)).toBeNull();
    noteClientAddress(inProcess, { requestIP: () => null });
    expect(clientAddressOf(inProcess)).toBeNull();
  });
});
