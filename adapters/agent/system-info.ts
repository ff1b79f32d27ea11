/** What the agent reports about its machine, read from the operating system. */
import { arch, cpus, hostname, networkInterfaces, platform, totalmem } from 'node:os';
import type { SystemInfo } from '../../core/agent/agent.ts';

export function detectSystem(overrides: Partial<SystemInfo> = {}): SystemInfo {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal);
  const ip = addresses.find((entry) => entry!.family === 'IPv4')?.address ?? addresses[0]?.address ?? '127.0.0.1';
  return {
    hostname: hostname(),
    ip_address: ip,
    os: platform(),
    arch: arch(),
    cpu_cores: cpus().length,
    memory_gb: Math.max(0, Math.round(totalmem() / 1024 ** 3)),
    ...overrides,
  };
}
