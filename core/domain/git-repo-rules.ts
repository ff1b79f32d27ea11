/** Rules for git repositories: which file extensions become tests of which tool, and the limits of a connection and a sync. */
import { badRequest } from '../kernel/errors.ts';
import type { TestTool } from './test-rules.ts';

/** The tool of a test file, by extension (the table); null: not a test file. */
export function toolOfFile(path: string): TestTool | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  switch (name.slice(dot + 1)) {
    case 'js':
      return 'k6';
    case 'py':
      return 'locust';
    case 'jmx':
      return 'jmeter';
    case 'yml':
    case 'yaml':
      return 'artillery';
    case 'scala':
    case 'java':
      return 'gatling';
    default:
      return null;
  }
}

export const maxUrlLength = 2048;
export const maxBranchLength = 255;
export const maxPathLength = 1024;
export const maxGitReposPerWorkspace = 50;
/** Test files one sync takes; a path that holds more fails the sync with a message to narrow it. */
export const maxSyncedFiles = 200;
/** Bytes one sync may download (the pack of the branch's newest commit, depth 1). */
export const maxFetchBytes = 64 * 1024 * 1024;
export const syncTimeoutMillis = 60_000;

/** A branch name as git allows it (git check-ref-format, roughly): no spaces, control characters, `..`, `~^:?*[\\`. */
export function checkBranch(value: string): string {
  const branch = value.trim();
  if (!branch) throw badRequest('branch must not be blank', { field: 'branch' });
  if (branch.length > maxBranchLength) throw badRequest(`branch may be at most ${maxBranchLength} characters`, { field: 'branch' });
  if (
    // eslint-disable-next-line no-control-regex
    /[\x00-\x20\x7f~^:?*[\\]/.test(branch) ||
    branch.includes('..') ||
    branch.includes('@{') ||
    branch.startsWith('/') ||
    branch.endsWith('/') ||
    branch.endsWith('.lock') ||
    branch.startsWith('-') ||
    branch.includes('//')
  ) {
    throw badRequest(`branch "${branch}" is not a valid git branch name`, { field: 'branch' });
  }
  return branch;
}

/** A repository-relative directory: '' (the whole repository) or `a/b`, without `.`, `..` or empty segments. */
export function checkRepoPath(value: string): string {
  const path = value.trim().replace(/^\/+|\/+$/g, '');
  if (path.length > maxPathLength) throw badRequest(`path may be at most ${maxPathLength} characters`, { field: 'path' });
  if (path === '' || path === '.') return '';
  const segments = path.split('/');
  // eslint-disable-next-line no-control-regex
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[\x00-\x1f\x7f\\]/.test(segment))) {
    throw badRequest(`path "${value}" must be a directory inside the repository, like loadtests or perf/k6`, { field: 'path' });
  }
  return path;
}

/** Whether `file` (repository-relative) lies at or below `dir` ('' is the root). */
export const isUnderPath = (file: string, dir: string) => dir === '' || file === dir || file.startsWith(`${dir}/`);
