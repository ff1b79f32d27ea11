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
    status: p.string(),
    agentVersion: p.string().nullable(),
    lastSeenAt: p.datetime().nullable(),
    /** Load tools the agent reported it can run. */
    tools: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Machine = InferEntity<typeof Machine>;
