/** The API view of a task: the spec's fields (metrics 0 until measured, timestamps null until reached) plus ours. */
import type { Task } from '../../domain/entities/task.ts';
import type { Verdict } from '../../domain/thresholds.ts';

export function toTaskView(task: Task, publicUrl: string) {
  return {
    id: task.id,
    public_id: task.publicId,
    test_id: task.testId,
    config_id: task.configId ?? null,
    schedule_id: task.scheduleId ?? null,
    status: task.status,
    p50: Number(task.p50 ?? 0),
    p95: Number(task.p95 ?? 0),
    p99: Number(task.p99 ?? 0),
    error_rate: Number(task.errorRate ?? 0),
    requests_per_sec: Number(task.requestsPerSec ?? 0),
    total_requests: Number(task.totalRequests ?? 0),
    machine_ids: task.requestedMachineIds,
    transport: task.transport,
    error: task.errorMessage ?? null,
    verdict: (task.verdict ?? null) as Verdict | null,
    threshold_results: task.thresholdResults ?? [],
    pending_reason: task.pendingReason ?? null,
    log_url: `${publicUrl}/api/v1/tasks/${task.id}/log-stream`,
    created_at: task.createdAt.toISOString(),
    started_at: task.startedAt?.toISOString() ?? null,
    finished_at: task.finishedAt?.toISOString() ?? null,
  };
}

export type TaskView = ReturnType<typeof toTaskView>;
