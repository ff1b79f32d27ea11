import { describe, expect, test } from 'bun:test';
import { DomainError } from '../kernel/errors.ts';
import { normalizeArch, normalizeHostname, normalizeIpAddress, normalizeOs, normalizeRegion, roundCapacity } from './machine-rules.ts';

describe('machine rules', () => {
  test('os and arch aliases normalise to one vocabulary', () => {
    expect(normalizeOs('Linux')).toBe('linux');
    expect(normalizeOs('win32')).toBe('windows');
    expect(normalizeArch('amd64')).toBe('x86_64');
    expect(normalizeArch('aarch64')).toBe('arm64');
    expect(() => normalizeOs('plan9')).toThrow(DomainError);
    expect(() => normalizeArch('sparc')).toThrow(/arch must be one of/);
  });

  test('hostnames follow RFC 1123 and compare case-insensitively', () => {
    expect(normalizeHostname('Gen-01.Example.com.')).toBe('gen-01.example.com');
    for (const bad of ['', '-a', 'a-', 'a..b', 'under_score', 'x'.repeat(64), `${'a.'.repeat(127)}aa`]) {
      expect(() => normalizeHostname(bad)).toThrow(DomainError);
    }
  });

  test('IPv4 and IPv6 addresses are accepted, anything else refused', () => {
    for (const good of ['10.0.0.1', '255.255.255.255', '::1', 'fe80::1', '2001:db8::8a2e:370:7334', '::ffff:192.0.2.1', '1:2:3:4:5:6:7:8']) {
      expect(normalizeIpAddress(good)).toBe(good);
    }
    for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', 'localhost', '1:2:3:4:5:6:7:8:9', '1::2::3', ':::1', '12345::1']) {
      expect(() => normalizeIpAddress(bad)).toThrow(/ip_address/);
    }
  });

  test('regions are cloud-style names, trimmed, case kept; empty is none', () => {
    for (const good of ['eu-west-1', 'europe-west4', 'westeurope', 'fra1', 'us_east.2', 'R'.repeat(64)]) expect(normalizeRegion(good)).toBe(good);
    expect(normalizeRegion('  eu-west-1\t')).toBe('eu-west-1');
    for (const none of ['', '   ', null]) expect(normalizeRegion(none)).toBeNull();
    for (const bad of ['eu west', '-eu', '.eu', 'eu/west', 'ü-1', 'r'.repeat(65)]) expect(() => normalizeRegion(bad)).toThrow(/region must be 1 to 64/);
  });

  test('a calibration figure keeps three significant figures', () => {
    expect(roundCapacity(12_345.6)).toBe(12_300);
    expect(roundCapacity(87.64)).toBe(87.6);
    expect(roundCapacity(0.12345)).toBe(0.123);
    expect(roundCapacity(0)).toBe(0);
  });
});
