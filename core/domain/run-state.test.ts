import { expect, test } from 'bun:test';
import { isPublicId, newPublicId } from './public-id.ts';
import { assertMove, canMove, isTerminal, taskStatuses } from './run-state.ts';

test('only the allowed transitions exist; terminal states are final', () => {
  expect(canMove('pending', 'running')).toBe(true);
  expect(canMove('running', 'completed')).toBe(true);
  expect(canMove('pending', 'completed')).toBe(false);
  expect(canMove('running', 'pending')).toBe(false);
  for (const terminal of ['completed', 'failed', 'cancelled']) {
    expect(isTerminal(terminal)).toBe(true);
    for (const to of taskStatuses) expect(canMove(terminal, to)).toBe(false);
  }
  expect(() => assertMove('completed', 'cancelled')).toThrow('a completed task cannot become cancelled');
});

test('public ids are short, unambiguous and distinct', () => {
  const ids = new Set(Array.from({ length: 1000 }, newPublicId));
  expect(ids.size).toBe(1000);
  for (const id of ids) expect(isPublicId(id)).toBe(true);
  expect(isPublicId('run-ILOU1234')).toBe(false);
});
