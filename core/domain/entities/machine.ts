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
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Machine = InferEntity<typeof Machine>;
