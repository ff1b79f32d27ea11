import { describe, expect, test } from 'bun:test';
import { checkBranch, checkRepoPath, isUnderPath, toolOfFile } from './git-repo-rules.ts';

describe('git repository rules', () => {
  test('the tool of a file by its extension', () => {
    expect(['a.js', 'b/c.py', 'p.JMX', 'x.yml', 'x.yaml', 'S.scala', 'S.java', 'README.md', '.js', 'noext'].map(toolOfFile)).toEqual([
      'k6',
      'locust',
      'jmeter',
      'artillery',
      'artillery',
      'gatling',
      'gatling',
      null,
      null,
      null,
    ]);
  });

  test('branches and paths: valid ones kept (trimmed), bad ones refused', () => {
    expect(checkBranch(' release/1.0 ')).toBe('release/1.0');
    for (const bad of ['', 'a..b', 'a b', 'a~1', '-x', 'x.lock', '/x', 'x/', 'a//b', 'a@{1}', 'a:b']) expect(() => checkBranch(bad), bad).toThrow();
    expect(checkRepoPath('/perf/k6/')).toBe('perf/k6');
    expect(checkRepoPath('')).toBe('');
    expect(checkRepoPath('.')).toBe('');
    for (const bad of ['../x', 'a/../b', 'a//b', 'a/./b']) expect(() => checkRepoPath(bad), bad).toThrow();
    expect(isUnderPath('perf/a.js', 'perf')).toBe(true);
    expect(isUnderPath('perfx/a.js', 'perf')).toBe(false);
    expect(isUnderPath('any/a.js', '')).toBe(true);
  });
});
