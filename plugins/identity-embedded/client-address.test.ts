/** The key a client's address counts under: the socket's peer, IPv4 as is, IPv6 by its /64, never a header. */
import { describe, expect, test } from 'bun:test';
import { addressKey, clientAddress } from './client-address.ts';

describe('addressKey', () => {
  test('IPv4, and IPv4 mapped into IPv6, are the address itself', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  test('IPv6 counts per /64, however it is written', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('clientAddress', () => {
  const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '198.51.100.1' } });

  test('the socket peer, not X-Forwarded-For (there is no trusted-proxy setting)', () => {
    const server = { requestIP: () => ({ address: '::ffff:127.0.0.1' }) };
    expect(clientAddress(server, request)).toBe('127.0.0.1');
  });

  test('no socket (an in-process request): no address', () => {
    expect(clientAddress(null, request)).toBeNull();
    expect(clientAddress({ requestIP: () => null }, request)).toBeNull();
  });
});
