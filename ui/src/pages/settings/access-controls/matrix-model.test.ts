/** Access controls' pure part: the matrix, toggles, changes and the PUT body. */
import { describe, expect, test } from 'bun:test';
import { changedCells, matrixOf, putBody, toggle } from './matrix-model';

const permissions = ['run_tests', 'manage_tests', 'manage_billing'];
const controls = {
  permissions,
  roles: { owner: permissions, admin: ['run_tests', 'manage_tests'], member: ['run_tests'], viewer: [] },
};

describe('access-controls matrix', () => {
  test('toggling a cell, never the owner column', () => {
    const saved = matrixOf(controls);
    expect(toggle(saved, 'owner', 'run_tests')).toBe(saved);
    const edited = toggle(toggle(saved, 'member', 'run_tests'), 'viewer', 'manage_tests');
    expect(edited.member.has('run_tests')).toBe(false);
    expect(saved.member.has('run_tests')).toBe(true);
    expect(changedCells(saved, edited, permissions)).toEqual(['member: run_tests removed', 'viewer: manage_tests granted']);
    expect(changedCells(saved, toggle(edited, 'member', 'run_tests'), permissions)).toEqual(['viewer: manage_tests granted']);
  });
  test('the body lists every editable role in the API order', () => {
    const edited = toggle(matrixOf(controls), 'admin', 'manage_billing');
    expect(putBody(edited, permissions)).toEqual({
      roles: { admin: ['run_tests', 'manage_tests', 'manage_billing'], member: ['run_tests'], viewer: [] },
    });
  });
});
