/** A load-generator machine registered in a workspace. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const Machine = defineEntity({
  name: 'Machine',
  tableName: 'machines',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.string(),
    hostname: p.string(),
    ipAddress: p.string(),
    os: p.string(),
    arch: p.string(),
    cpuCores: p.integer(),
    memoryGb: p.integer(),
    /**
     * Derived, never stored: offline without a live agent presence, busy with an active assignment, else online.
     * Presence is the lease a replica renews while it holds the agent's socket.
     */
    status: p.string().formula(
      (cols) =>
        `case when ${cols.connectionId} is not null and ${cols.leaseUntil} > now() then ` +
        `case when exists (select 1 from task_assignments a where a.machine_id = ${cols.id} and a.status in ('pending', 'running', 'cancelling')) ` +
        `then 'busy' else 'online' end else 'offline' end`,
    ),
    /** The agent socket now held (one per machine), the replica holding it, and until when that holds without renewal. */
    connectionId: p.uuid().nullable(),
    replicaId: p.uuid().nullable(),
    leaseUntil: p.datetime().nullable(),
    agentVersion: p.string().nullable(),
    lastSeenAt: p.datetime().nullable(),
    /** Load tools the agent reported it can run. */
    tools: p.json<string[]>(),
    /** Their versions as the agent found them (tool id -> version); a tool without a known version is absent. */
    toolVersions: p.json<Record<string, string>>(),
    /** Why the agent offers no more: tool id -> its words (missing engine with the way to install it, or refused). */
    toolProblems: p.json<Record<string, string>>(),
    /** Where the machine runs, as its agent reports it (`--region`) or its registration says; null when unknown. */
    region: p.string().nullable(),
    /** Requests/s the machine sustained in a calibration run; null until one ran. */
    benchmarkCapacity: p.double().nullable(),
    /** SHA-256 (hex) of the machine key of the agent that owns it; null for a keyless agent or a hand-made machine. */
    agentKeyHash: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Machine = InferEntity<typeof Machine>;
