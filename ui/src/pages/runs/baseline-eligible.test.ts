import { describe, expect, test } from 'bun:test';
import { canBeBaseline } from './baseline-eligible';

describe('canBeBaseline', () => {
  test('a finished run that started can be the baseline', () => {
    expect(canBeBaseline({ status: 'completed', started_at: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(canBeBaseline({ status: 'failed', started_at: '2026-01-01T00:00:00Z' })).toBe(true);
  });
  test('live, cancelled or never started runs cannot', () => {
    expect(canBeBaseline({ status: 'running', started_at: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(canBeBaseline({ status: 'cancelled', started_at: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(canBeBaseline({ status: 'failed', started_at: null })).toBe(false);
  });
});
