import { describe, expect, test } from 'bun:test';
import { createMasker, maskPieces } from './secret-masking.ts';
import { envKeyProblem, toolEnvOf } from './env-var-rules.ts';

describe('secret masking', () => {
  test('every occurrence becomes ***; the longest value first; short values are left alone', () => {
    const mask = createMasker(['hunter2!', 'hunter2!-extended', 'abc'])!;
    expect(mask('a hunter2! b hunter2!-extended c hunter2!')).toBe('a *** b *** c ***');
    expect(mask('abc is short')).toBe('abc is short');
    expect(mask('nothing here')).toBe('nothing here');
  });

  test('multi-line values are masked line by line, trimmed; nothing to mask gives no masker', () => {
    expect(maskPieces(['  line-one \r\nline-two\n\nxy'])).toEqual(['line-one', 'line-two']);
    const mask = createMasker(['-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD\n-----END KEY-----'])!;
    expect(mask('MIIBOgIBAAJBAKj34GkxFhD')).toBe('***');
    expect(mask('-----BEGIN KEY-----')).toBe('***');
    expect(createMasker(['', 'ab', '   '])).toBeNull();
  });
});

describe('env var names', () => {
  test('POSIX names pass; reserved, malformed and long ones are refused with a reason', () => {
    for (const ok of ['A', '_x', 'API_KEY_2', 'k6_VUS']) expect(envKeyProblem(ok)).toBeNull();
    for (const bad of ['', '2A', 'A-B', 'A B', 'PATH', 'Home', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'LOADPLANE_X', 'BASH_FUNC_x%%', 'X'.repeat(129)]) {
      expect(envKeyProblem(bad), bad).not.toBeNull();
    }
  });

  test('toolEnvOf drops what an agent must not pass on, whatever the wire says', () => {
    expect(toolEnvOf({ GOOD: 'v', PATH: '/evil', LD_PRELOAD: 'x.so', 'BAD-NAME': 'v', NUL: 'a\0b' })).toEqual({ GOOD: 'v' });
    expect(toolEnvOf(undefined)).toEqual({});
  });
});

describe('secret masking with characters that mean something to a regular expression', () => {
  test('values are matched literally', () => {
    const mask = createMasker(['a.b*c', '$(x)|y', 'p[a]th\\', '$&$1'])!;
    expect(mask('a.b*c aXbbc $(x)|y p[a]th\\ $&$1')).toBe('*** aXbbc *** *** ***');
  });
});
