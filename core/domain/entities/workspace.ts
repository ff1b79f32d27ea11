/** A workspace (tenant): every tenant-owned row points at one. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const workspaceStatuses = ['active', 'suspended'] as const;

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    plan: p.string().length(20),
    status: p.string().length(20),
    /** The first workspace waits for its owner: the bootstrap admin claims it at first sign-in. */
    pendingOwnerUsername: p.string().nullable(),
    isBootstrap: p.boolean(),
    createdAt: p.datetime(),
  },
});
export type Workspace = InferEntity<typeof Workspace>;
