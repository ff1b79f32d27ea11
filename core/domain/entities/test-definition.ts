/** A test definition: a script plus the tool that runs it. Deletion is soft so runs keep their test. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

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
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});
export type TestDefinition = InferEntity<typeof TestDefinition>;
