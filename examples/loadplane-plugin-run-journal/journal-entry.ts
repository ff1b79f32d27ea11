/** One journal entry from a run.finished event: what the journal keeps of a run, checked field by field. */
import type { OutboxRecord } from '@loadplane/plugin-kit';

export interface JournalEntry {
  taskId: string;
  workspaceId: string;
  testId: string | null;
  status: string;
  verdict: string | null;
  durationMs: number;
  error: string | null;
  finishedAt: Date;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The entry a run.finished record makes; null for a record without a run (the journal keeps runs only). */
export function journalEntryOf(record: OutboxRecord): JournalEntry | null {
  if (record.event !== 'run.finished' || !record.taskId) return null;
  const { payload } = record;
  const duration = Number(payload.duration_ms);
  return {
    taskId: record.taskId,
    workspaceId: record.workspaceId,
    testId: text(payload.test_id),
    status: text(payload.status) ?? 'unknown',
    verdict: text(payload.verdict),
    durationMs: Number.isFinite(duration) && duration > 0 ? Math.round(duration) : 0,
    // Bounded: a run's error can be a long engine message; the journal is a summary.
    error: text(payload.error)?.slice(0, 500) ?? null,
    finishedAt: record.createdAt,
  };
}
