import { expect, test } from 'bun:test';
import { isPublicId, newPublicId } from './public-id.ts';
import {
  activeAssignmentStatuses,
  assertMove,
  assignmentStatuses,
  assignmentStatusesBefore,
  canMove,
  canMoveAssignment,
  isTerminal,
  taskStatuses,
} from './run-state.ts';

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

test('an assignment whose stop was asked can only end cancelled; active ones are those that may still move', () => {
  expect(assignmentStatusesBefore('running')).toEqual(['pending']);
  expect(assignmentStatusesBefore('cancelled')).toEqual(['cancelling']);
  expect(assignmentStatusesBefore('failed')).toEqual(['pending', 'running']);
  expect(assignmentStatusesBefore('cancelling')).toEqual(['pending', 'running']);
  expect(canMoveAssignment('cancelling', 'completed')).toBe(false);
  expect(canMoveAssignment('running', 'pending')).toBe(false);
  expect(assignmentStatuses.filter((from) => assignmentStatuses.some((to) => canMoveAssignment(from, to)))).toEqual([...activeAssignmentStatuses]);
  for (const status of assignmentStatuses) expect(isTerminal(status)).toBe(!(activeAssignmentStatuses as readonly string[]).includes(status));
});

test('public ids are short, unambiguous and distinct', () => {
  const ids = new Set(Array.from({ length: 1000 }, newPublicId));
  expect(ids.size).toBe(1000);
  for (const id of ids) expect(isPublicId(id)).toBe(true);
  expect(isPublicId('run-ILOU1234')).toBe(false);
});
