/** A task: one run of a test on one or more machines, with the metrics merged across them. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { Threshold, ThresholdResult } from '../thresholds.ts';

export const Task = defineEntity({
  name: 'Task',
  tableName: 'tasks',
  properties: {
    id: p.uuid().primary(),
    publicId: p.string().unique(),
    workspaceId: p.uuid(),
    testId: p.uuid(),
    configId: p.uuid().nullable(),
    /** The schedule that started this run; null for a run started by hand. */
    scheduleId: p.uuid().nullable(),
    status: p.string(),
    transport: p.string(),
    /** Machines asked for by the caller; empty: any one free machine. */
    requestedMachineIds: p.json<string[]>(),
    machineCount: p.integer(),
    createdBy: p.uuid().nullable(),
    p50: p.double().nullable(),
    p95: p.double().nullable(),
    p99: p.double().nullable(),
    errorRate: p.double().nullable(),
    requestsPerSec: p.double().nullable(),
    totalRequests: p.bigint('number').nullable(),
    errorMessage: p.text().nullable(),
    /** The test's thresholds when the task was created: a later edit of the test does not change this run's verdict. */
    thresholds: p.json<Threshold[]>(),
    /** passed / failed once the run ended on its own and had thresholds; null otherwise (cancelled, never started). */
    verdict: p.string().nullable(),
    thresholdResults: p.json<ThresholdResult[]>(),
    /** Stored log lines (bounded), and the last line sequence given out (stored or relayed live only). */
    logLines: p.integer(),
    logSeq: p.bigint('number'),
    /** A pending task still waiting then fails: nothing waits forever unnoticed. */
    pendingUntil: p.datetime().nullable(),
    /** Why a pending task waits, in words, as the dispatcher last saw it; null once it runs (cleared by the lifecycle). */
    pendingReason: p.text().nullable(),
    logTruncated: p.boolean(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type Task = InferEntity<typeof Task>;
