/** Environment variables: names and values checked as the API checks them, and who changed them. */
import { describe, expect, test } from 'bun:test';
import { actorLabel, validateKey, validateValue } from './env-var-model';

describe('environment variable rules', () => {
  test('names are POSIX environment names', () => {
    expect(validateKey('API_KEY')).toBeNull();
    expect(validateKey('_x1')).toBeNull();
    expect(validateKey('')).toMatch(/Enter a name/);
    expect(validateKey('1ABC')).toMatch(/does not start with a digit/);
    expect(validateKey('MY-KEY')).toMatch(/letters, digits and _/);
    expect(validateKey('A'.repeat(129))).toMatch(/128/);
  });
  test('values: at most 8 KiB of UTF-8, no NUL; empty is allowed', () => {
    expect(validateValue('')).toBeNull();
    expect(validateValue('s3cr3t')).toBeNull();
    expect(validateValue('a\0b')).toMatch(/NUL/);
    expect(validateValue('é'.repeat(4097))).toMatch(/8 KiB/);
  });
  test('who changed it', () => {
    expect(actorLabel({ type: 'user', id: 'u1', label: 'alice', user_id: 'u1' })).toBe('alice');
    expect(actorLabel({ type: 'token', id: 't1', label: 'ci-bot', user_id: 'u1' })).toBe('API token ci-bot');
    expect(actorLabel({ type: 'system', id: null, label: null, user_id: null })).toBe('system');
    expect(actorLabel(null)).toBe('–');
  });
});
