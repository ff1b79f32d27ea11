/**
 * One server log line when a run starts and one when it ends, with its figures: an operator watching the log sees
 * runs come and go (waiting runs log their reason in pending-reasons.ts). Hook reactions: a lost line loses nothing.
 */
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Sql } from '../sql.ts';

interface FigureRow {
  public_id: string | null;
  total_requests: number | string | null;
  requests_per_sec: number | string | null;
  error_rate: number | string | null;
  p50: number | string | null;
  p95: number | string | null;
  p99: number | string | null;
  error_message: string | null;
}

const numberOr = (value: number | string | null) => (value === null ? null : Number(value));

export function logRunLines(hooks: HookBus<KernelHooks>, sql: Sql, logger: Logger): () => void {
  const offStarted = hooks.hook('run:started', ({ workspaceId, taskId, testId, machineIds }) => {
    logger.info('run started', { task_id: taskId, workspace_id: workspaceId, test_id: testId, machines: machineIds.length });
  });
  const offFinished = hooks.hook('run:finished', async ({ workspaceId, taskId, status, durationMs }) => {
    const [row] = await sql.all<FigureRow>(
      'select public_id, total_requests, requests_per_sec, error_rate, p50, p95, p99, error_message from tasks where id = ?',
      [taskId],
    );
    logger.info('run finished', {
      task_id: taskId,
      public_id: row?.public_id ?? null,
      workspace_id: workspaceId,
      status,
      duration_s: Math.round(durationMs / 100) / 10,
      requests: numberOr(row?.total_requests ?? null),
      requests_per_sec: numberOr(row?.requests_per_sec ?? null),
      error_rate: numberOr(row?.error_rate ?? null),
      p50_ms: numberOr(row?.p50 ?? null),
      p95_ms: numberOr(row?.p95 ?? null),
      p99_ms: numberOr(row?.p99 ?? null),
      ...(row?.error_message ? { error: row.error_message } : {}),
    });
  });
  return () => {
    offStarted();
    offFinished();
  };
}
