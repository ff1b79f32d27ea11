import { describe, expect, test } from 'bun:test';
import { eventOfOutboxRow, type OutboxRow } from './webhook-events.ts';

const row = (payload: Record<string, unknown>): OutboxRow => ({
  id: 1,
  workspace_id: 'w',
  event: 'run.finished',
  task_id: 't',
  payload: { test_id: 'x', machine_ids: ['m'], duration_ms: 1500.4, ...payload },
  created_at: new Date(0),
});

describe('the final events carry the verdict of the run', () => {
  test('passed on test.completed, failed on test.failed with the error naming the thresholds', () => {
    expect(eventOfOutboxRow(row({ status: 'completed', verdict: 'passed' }), 'https://lp.example')).toMatchObject({
      event: 'test.completed',
      data: { status: 'completed', verdict: 'passed', duration_ms: 1500 },
    });
    const error = 'thresholds failed: p95 < 200 (actual 312.4)';
    expect(eventOfOutboxRow(row({ status: 'failed', verdict: 'failed', error }), 'https://lp.example')).toMatchObject({
      event: 'test.failed',
      data: { status: 'failed', verdict: 'failed', error },
    });
  });

  test('null without thresholds, for a cancelled run, and for rows written before verdicts existed', () => {
    for (const payload of [{ status: 'completed', verdict: null }, { status: 'cancelled', verdict: null }, { status: 'failed' }, { status: 'completed', verdict: 'maybe' }]) {
      expect(eventOfOutboxRow(row(payload), 'https://lp.example')!.data.verdict).toBeNull();
    }
  });

  test('test.started has no verdict', () => {
    expect(eventOfOutboxRow({ ...row({}), event: 'run.started' }, 'https://lp.example')!.data).not.toHaveProperty('verdict');
  });
});
