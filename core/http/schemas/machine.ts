/** Machine request and response schemas, and the entity-to-API view. */
import { t } from 'elysia';
import type { Machine } from '../../domain/entities/machine.ts';
import { machineStatuses } from '../../domain/machine-rules.ts';
import { Timestamp } from './common.ts';

export const MachineView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    hostname: t.String(),
    ip_address: t.String(),
    os: t.String({ description: 'linux, darwin, windows, freebsd or unknown' }),
    arch: t.String({ description: 'x86_64, arm64, arm, x86 or unknown' }),
    cpu_cores: t.Integer(),
    memory_gb: t.Integer(),
    status: t.String({ description: machineStatuses.join(', ') }),
    created_at: Timestamp,
  },
  { title: 'Machine' },
);

export const MachineCreate = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100 }),
    hostname: t.String({ minLength: 1, maxLength: 253, description: 'unique within the workspace (case-insensitive)' }),
    ip_address: t.String({ minLength: 1, maxLength: 45, description: 'IPv4 or IPv6 address' }),
    os: t.Optional(t.String({ maxLength: 20, description: 'linux (default), darwin, windows, freebsd, unknown; aliases such as win32 accepted' })),
    arch: t.Optional(t.String({ maxLength: 20, description: 'x86_64 (default), arm64, arm, x86, unknown; aliases such as amd64 or aarch64 accepted' })),
    cpu_cores: t.Optional(t.Integer({ minimum: 0, maximum: 4096, description: '0 when unknown (default)' })),
    memory_gb: t.Optional(t.Integer({ minimum: 0, maximum: 65536, description: '0 when unknown (default)' })),
  },
  { additionalProperties: false, title: 'MachineCreate' },
);

export function toMachineView(machine: Machine) {
  return {
    id: machine.id,
    name: machine.name,
    hostname: machine.hostname,
    ip_address: machine.ipAddress,
    os: machine.os,
    arch: machine.arch,
    cpu_cores: machine.cpuCores,
    memory_gb: machine.memoryGb,
    status: machine.status,
    created_at: machine.createdAt.toISOString(),
  };
}
