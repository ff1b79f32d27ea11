/** A named load configuration: constant VUs for a duration, or ramping stages. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const LoadConfigEntity = defineEntity({
  name: 'LoadConfigEntity',
  tableName: 'load_configs',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.string(),
    vus: p.integer().nullable(),
    duration: p.string().nullable(),
    stages: p.json<{ duration: string; target: number }[]>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type LoadConfigEntity = InferEntity<typeof LoadConfigEntity>;
