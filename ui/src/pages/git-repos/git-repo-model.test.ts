/** Git repositories: the add form's checks and body, and the tests a repository made. */
import { describe, expect, test } from 'bun:test';
import { bodyOfDraft, emptyDraft, isSyncing, shortCommit, syncSummary, testsOfRepo, toolOfPath, validateRepo } from './git-repo-model';

describe('git repository form', () => {
  test('http(s) URLs without credentials in them', () => {
    expect(validateRepo({ ...emptyDraft, url: 'https://github.com/acme/tests.git' })).toEqual({});
    expect(validateRepo(emptyDraft).url).toMatch(/Enter/);
    expect(validateRepo({ ...emptyDraft, url: 'git@github.com:acme/tests.git' }).url).toMatch(/not a URL/);
    expect(validateRepo({ ...emptyDraft, url: 'ssh://github.com/acme/tests.git' }).url).toMatch(/Only http/);
    expect(validateRepo({ ...emptyDraft, url: 'https://me:tok@github.com/x.git' }).url).toMatch(/credentials/);
    expect(validateRepo({ ...emptyDraft, url: 'https://h/x.git', username: 'ci' }).password).toMatch(/password/);
  });
  test('the body: optional fields only when given', () => {
    expect(bodyOfDraft({ ...emptyDraft, url: ' https://h/x.git ' })).toEqual({ url: 'https://h/x.git' });
    expect(bodyOfDraft({ url: 'https://h/x.git', branch: 'dev', path: '/load/', username: '', password: 't0k' })).toEqual({
      url: 'https://h/x.git',
      branch: 'dev',
      path: 'load',
      credentials: { password: 't0k' },
    });
    expect(bodyOfDraft({ ...emptyDraft, url: 'https://h/x.git', username: 'ci', password: 'p' }).credentials).toEqual({ username: 'ci', password: 'p' });
  });
  test('status and commit', () => {
    expect(shortCommit('0123456789abcdef')).toBe('0123456');
    expect(shortCommit(null)).toBe('–');
    expect(isSyncing('queued') && isSyncing('syncing')).toBe(true);
    expect(isSyncing('synced') || isSyncing('failed')).toBe(false);
    expect(syncSummary({ files: 3, created: 2, updated: 0, unchanged: 0, archived: 0, skipped: [{ path: 'a.js', reason: 'empty file' }] })).toBe(
      '3 files: 2 created, 0 updated, 0 unchanged, 0 archived, 1 skipped',
    );
  });
  test('the tests a repository made: file paths under its path, of the tool their extension says, created since', () => {
    expect(toolOfPath('load/checkout.js')).toBe('k6');
    expect(toolOfPath('README.md')).toBeNull();
    const repo = { path: 'load', created_at: '2026-01-01T00:00:00Z' };
    const tests = [
      { id: '1', name: 'load/checkout.js', tool: 'k6', status: 'active', created_at: '2026-01-01T00:00:05Z' },
      { id: '2', name: 'load/users.py', tool: 'locust', status: 'archived', created_at: '2026-01-01T00:00:05Z' },
      { id: '3', name: 'other/x.js', tool: 'k6', status: 'active', created_at: '2026-01-01T00:00:05Z' },
      { id: '4', name: 'load/old.js', tool: 'k6', status: 'active', created_at: '2025-12-01T00:00:00Z' },
      { id: '5', name: 'load/odd.js', tool: 'http', status: 'active', created_at: '2026-01-01T00:00:05Z' },
    ];
    expect(testsOfRepo(tests, repo).map((t) => t.id)).toEqual(['1', '2']);
    expect(testsOfRepo(tests, { ...repo, path: '' }).map((t) => t.id)).toEqual(['1', '2', '3']);
  });
});
