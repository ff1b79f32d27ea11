/** Outbox rows: one per run event, written in the transaction of the transition it reports (webhooks deliver from here). */
import type { Sql } from '../sql.ts';

export type RunEvent = 'run.created' | 'run.started' | 'run.finished' | 'assignment.started' | 'assignment.finished';

export async function writeOutbox(
  tx: Sql,
  row: { workspaceId: string; event: RunEvent; taskId: string; payload: Record<string, unknown> },
): Promise<void> {
  await tx.all('insert into outbox (workspace_id, event, task_id, payload) values (?, ?, ?, ?::jsonb)', [
    row.workspaceId,
    row.event,
    row.taskId,
    JSON.stringify({ task_id: row.taskId, ...row.payload }),
  ]);
}
