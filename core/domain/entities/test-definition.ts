/** A test definition: a script plus the tool that runs it. Deletion is soft so runs keep their test. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { Threshold } from '../thresholds.ts';

export const TestDefinition = defineEntity({
  name: 'TestDefinition',
  tableName: 'tests',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.string(),
    tool: p.string(),
    status: p.string(),
    script: p.text(),
    /** Pass/fail conditions on a run's figures; each task copies them when it is created. */
    thresholds: p.json<Threshold[]>(),
    /** A finished run of this test that `compare?with=baseline` compares against; null: none. */
    baselineTaskId: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});
export type TestDefinition = InferEntity<typeof TestDefinition>;
