/** Members' pure part: roles, naming and the invite check. */
import { describe, expect, test } from 'bun:test';
import { assignableRoles, memberDetail, memberName, ROLES, validateInvite } from './member-model';

describe('member model', () => {
  test('roles, and only owners grant owner', () => {
    expect(ROLES).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(assignableRoles('owner')).toContain('owner');
    expect(assignableRoles('admin')).toEqual(['admin', 'member', 'viewer']);
  });
  test('names', () => {
    const ana = { user_id: 'u1', name: 'Ana', username: 'ana', email: 'ana@example.com' };
    expect(memberName(ana)).toBe('Ana');
    expect(memberDetail(ana)).toBe('ana · ana@example.com');
    expect(memberName({ user_id: 'u2', name: null, username: 'bo', email: null })).toBe('bo');
    expect(memberDetail({ user_id: 'u2', name: null, username: 'bo', email: null })).toBe('');
  });
  test('invite needs a handle', () => {
    expect(validateInvite('  ')).toContain('exact username');
    expect(validateInvite('ana')).toBeNull();
  });
});
