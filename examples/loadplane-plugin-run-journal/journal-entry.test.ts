/** What the journal keeps of a run.finished event, and what it leaves out. */
import { describe, expect, test } from 'bun:test';
import type { OutboxRecord } from '@loadplane/plugin-kit';
import plugin, { journalEntryOf } from './index.ts';

const finished = (payload: Record<string, unknown>, overrides: Partial<OutboxRecord> = {}): OutboxRecord => ({
  id: 7,
  workspaceId: 'w-1',
  event: 'run.finished',
  taskId: 't-1',
  payload,
  createdAt: new Date('2026-11-26T10:00:00Z'),
  ...overrides,
});

describe('journalEntryOf', () => {
  test('keeps the run, its test, status, verdict, duration and error', () => {
    expect(journalEntryOf(finished({ test_id: 'x-1', status: 'failed', verdict: 'failed', duration_ms: 1234.4, error: 'p95 too high' }))).toEqual({
      taskId: 't-1',
      workspaceId: 'w-1',
      testId: 'x-1',
      status: 'failed',
      verdict: 'failed',
      durationMs: 1234,
      error: 'p95 too high',
      finishedAt: new Date('2026-11-26T10:00:00Z'),
    });
  });

  test('reads a sparse or odd payload without failing, and bounds the error', () => {
    const entry = journalEntryOf(finished({ duration_ms: 'soon', error: 'e'.repeat(2000), verdict: null }));
    expect(entry).toMatchObject({ testId: null, status: 'unknown', verdict: null, durationMs: 0 });
    expect(entry!.error).toHaveLength(500);
  });

  test('other events and events without a run make no entry', () => {
    expect(journalEntryOf(finished({}, { event: 'run.started' }))).toBeNull();
    expect(journalEntryOf(finished({}, { taskId: null }))).toBeNull();
  });
});

test('the plugin names its migrations after itself, as the service requires', () => {
  expect(plugin.sqlMigrations!.map((migration) => migration.name.startsWith(`${plugin.name}-`))).toEqual([true]);
});
