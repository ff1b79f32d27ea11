/** Rules for machine fields the spec leaves open: hostname, IP and region syntax, and the os/arch vocabularies with their aliases. */
import { badRequest } from '../kernel/errors.ts';

export const machineOses = ['linux', 'darwin', 'windows', 'freebsd', 'unknown'] as const;
export const machineArches = ['x86_64', 'arm64', 'arm', 'x86', 'unknown'] as const;
export const machineStatuses = ['online', 'busy', 'offline'] as const;

// Common spellings from uname, Node's process.platform/arch and Go's GOOS/GOARCH.
const osAliases: Record<string, (typeof machineOses)[number]> = {
  linux: 'linux',
  darwin: 'darwin',
  macos: 'darwin',
  osx: 'darwin',
  windows: 'windows',
  win32: 'windows',
  freebsd: 'freebsd',
  unknown: 'unknown',
};
const archAliases: Record<string, (typeof machineArches)[number]> = {
  x86_64: 'x86_64',
  amd64: 'x86_64',
  x64: 'x86_64',
  arm64: 'arm64',
  aarch64: 'arm64',
  arm: 'arm',
  armv7l: 'arm',
  x86: 'x86',
  i386: 'x86',
  i686: 'x86',
  ia32: 'x86',
  unknown: 'unknown',
};

/** Every spelling normalizeOs and normalizeArch accept (in lower case). */
export const osNames = Object.keys(osAliases);
export const archNames = Object.keys(archAliases);

export function normalizeOs(value: string): string {
  const os = osAliases[value.trim().toLowerCase()];
  if (!os) throw badRequest(`os must be one of ${machineOses.join(', ')} (got "${value}")`, { field: 'os' });
  return os;
}

export function normalizeArch(value: string): string {
  const arch = archAliases[value.trim().toLowerCase()];
  if (!arch) throw badRequest(`arch must be one of ${machineArches.join(', ')} (got "${value}")`, { field: 'arch' });
  return arch;
}

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 253 characters at most. */
export function normalizeHostname(value: string): string {
  const hostname = value.trim().toLowerCase().replace(/\.$/, '');
  const label = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
  if (hostname.length === 0 || hostname.length > 253 || !hostname.split('.').every((part) => label.test(part))) {
    throw badRequest(`hostname must be a valid host name (letters, digits, hyphens and dots), got "${value}"`, {
      field: 'hostname',
    });
  }
  return hostname;
}

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(value: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(value) || value.includes(':::')) return false;
  const [head, tail, ...rest] = value.split('::');
  if (rest.length > 0) return false;
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const groups = [...groupsOf(head), ...groupsOf(tail)];
  let count = groups.length;
  const last = groups.at(-1);
  if (last?.includes('.')) {
    if (!ipv4.test(last)) return false;
    groups.pop();
    count += 1; // an embedded IPv4 address fills two groups
  }
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return tail === undefined ? count === 8 : count < 8;
}

export function normalizeIpAddress(value: string): string {
  const ip = value.trim().toLowerCase();
  if (!ipv4.test(ip) && !isIpv6(ip)) {
    throw badRequest(`ip_address must be an IPv4 or IPv6 address, got "${value}"`, { field: 'ip_address' });
  }
  return ip;
}

/** A region as clouds name them (eu-west-1, europe-west4, westeurope, fra1): letters, digits, '.', '_' and '-'. */
export const regionSyntax = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';
const region = new RegExp(`^${regionSyntax}$`);

/** The region trimmed, as given (case kept); an empty one is no region (null). */
export function normalizeRegion(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return null;
  if (!region.test(trimmed)) {
    throw badRequest(`region must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. eu-west-1), got "${value}"`, {
      field: 'region',
    });
  }
  return trimmed;
}

/** A calibration's requests/s to three significant figures (12,345.6 -> 12,300; 87.64 -> 87.6): its repeatability is a few percent at best. */
export function roundCapacity(requestsPerSec: number): number {
  return requestsPerSec > 0 ? Number(requestsPerSec.toPrecision(3)) : 0;
}
