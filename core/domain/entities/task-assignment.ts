/** One machine's share of a task: what it was sent, what it reported, how it ended. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { MetricSnapshot } from '../../capabilities/load-tool.ts';

export const TaskAssignment = defineEntity({
  name: 'TaskAssignment',
  tableName: 'task_assignments',
  properties: {
    id: p.uuid().primary(),
    taskId: p.uuid(),
    workspaceId: p.uuid(),
    machineId: p.uuid(),
    machineIndex: p.integer(),
    status: p.string(),
    exitCode: p.integer().nullable(),
    reason: p.text().nullable(),
    summary: p.json<MetricSnapshot>().nullable(),
    /** Highest log batch sequence stored, so a batch resent after a reconnect is not stored twice. */
    lastLogSeq: p.integer(),
    /** When the last assign or cancel was sent to the agent; unacknowledged ones are sent again. */
    sentAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type TaskAssignment = InferEntity<typeof TaskAssignment>;
