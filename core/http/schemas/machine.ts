/** Machine request and response schemas, and the entity-to-API view. */
import { t } from 'elysia';
import type { Machine } from '../../domain/entities/machine.ts';
import { archNames, machineStatuses, osNames, regionSyntax } from '../../domain/machine-rules.ts';
import { documented, Integer, jsWhitespace, NonBlank, Timestamp } from './common.ts';

export const MachineView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    hostname: t.String(),
    ip_address: t.String(),
    os: t.String({ description: 'linux, darwin, windows, freebsd or unknown' }),
    arch: t.String({ description: 'x86_64, arm64, arm, x86 or unknown' }),
    cpu_cores: Integer(),
    memory_gb: Integer(),
    status: t.String({ description: machineStatuses.join(', ') }),
    created_at: Timestamp,
    agent_version: t.Union([t.String(), t.Null()], { description: "the version of the agent that last connected for this machine; null when none has" }),
    region: t.Union([t.String(), t.Null()], { description: 'where the machine runs (e.g. eu-west-1), as its agent reports it (--region) or its registration said; null when unknown' }),
    benchmark_capacity: t.Union([t.Number({ minimum: 0 }), t.Null()], {
      description: 'requests per second the machine sustained in a calibration run, to judge how many machines a target load needs; null until one ran',
    }),
    tools: t.Array(
      t.Object(
        {
          tool: t.String({ description: 'a tool id, as tests name it (k6, jmeter, custom, ...)' }),
          version: t.Union([t.String(), t.Null()], { description: "the engine's version as the agent found it; null when unknown" }),
        },
        { title: 'MachineTool' },
      ),
      { description: 'the load tools the agent last reported it can run here, by tool id; empty until an agent connects' },
    ),
  },
  { title: 'Machine' },
);

/** RFC 1123 labels, as normalizeHostname checks them (it also trims, lower-cases and drops one trailing dot). */
const hostnamePattern = '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?$';

export const MachineCreate = t.Object(
  {
    name: NonBlank({ maxLength: 100 }),
    hostname: t.String({
      minLength: 1,
      maxLength: 253,
      description: 'unique within the workspace (case-insensitive)',
      ...documented({ pattern: hostnamePattern }),
    }),
    ip_address: t.String({
      minLength: 1,
      maxLength: 45,
      description: 'IPv4 or IPv6 address',
      ...documented({ anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }),
    }),
    os: t.Optional(
      t.String({ maxLength: 20, description: 'linux (default), darwin, windows, freebsd, unknown, or an alias such as win32', ...documented({ enum: osNames }) }),
    ),
    arch: t.Optional(
      t.String({
        maxLength: 20,
        description: 'x86_64 (default), arm64, arm, x86, unknown, or an alias such as amd64 or aarch64',
        ...documented({ enum: archNames }),
      }),
    ),
    cpu_cores: t.Optional(Integer({ minimum: 0, maximum: 4096, description: '0 when unknown (default)' })),
    memory_gb: t.Optional(Integer({ minimum: 0, maximum: 65536, description: '0 when unknown (default)' })),
    region: t.Optional(
      t.Union([t.String({ maxLength: 100, ...documented({ pattern: `^[${jsWhitespace}]*(${regionSyntax}[${jsWhitespace}]*)?$` }) }), t.Null()], {
        description: "where the machine runs, e.g. eu-west-1: 1 to 64 letters, digits, '.', '_' or '-' (trimmed); empty or null: unknown (default). An agent that reports one replaces it",
      }),
    ),
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
    agent_version: machine.agentVersion ?? null,
    region: machine.region ?? null,
    benchmark_capacity: machine.benchmarkCapacity == null ? null : Number(machine.benchmarkCapacity),
    tools: [...(machine.tools ?? [])].sort().map((tool) => ({ tool, version: machine.toolVersions?.[tool] ?? null })),
  };
}
