/** A schedule: a test of the workspace started by a cron expression in an IANA time zone. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const Schedule = defineEntity({
  name: 'Schedule',
  tableName: 'schedules',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    testId: p.uuid(),
    cron: p.string(),
    timezone: p.string(),
    configId: p.uuid().nullable(),
    machineIds: p.json<string[]>(),
    enabled: p.boolean(),
    /** When it runs next; null while disabled. */
    nextRunAt: p.datetime().nullable(),
    lastRunAt: p.datetime().nullable(),
    lastTaskId: p.uuid().nullable(),
    /** Why the last time it was due started no run (the test's script no longer runs, too many tasks waiting); null after a run. */
    lastError: p.text().nullable(),
    createdBy: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Schedule = InferEntity<typeof Schedule>;
