/** Whether a run can be its test's baseline: it finished (completed or failed) having started, as PUT /tests/{id}/baseline requires. */
import type { Task } from '../../api/types';

export function canBeBaseline(task: Pick<Task, 'status' | 'started_at'>): boolean {
  return (task.status === 'completed' || task.status === 'failed') && !!task.started_at;
}
