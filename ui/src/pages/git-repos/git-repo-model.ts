/**
 * Git repositories: the add form's checks and body, and what the page shows of a repository.
 * Exports: RepoDraft, emptyDraft, validateRepo(draft), bodyOfDraft(draft), shortCommit(sha), isSyncing(status),
 * toolOfPath(path), testsOfRepo(tests, repo), syncSummary(result).
 */

export interface RepoDraft {
  url: string;
  branch: string;
  path: string;
  username: string;
  /** A password or an access token: write-only, never shown again. */
  password: string;
}

export const emptyDraft: RepoDraft = { url: '', branch: '', path: '', username: '', password: '' };

export type RepoErrors = Partial<Record<keyof RepoDraft, string>>;

export function validateRepo(draft: RepoDraft): RepoErrors {
  const errors: RepoErrors = {};
  const url = draft.url.trim();
  if (!url) errors.url = 'Enter the repository’s http(s) URL, such as https://github.com/acme/load-tests.git.';
  else {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      errors.url = 'This is not a URL: write it in full, with https://.';
    }
    if (parsed) {
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') errors.url = 'Only http(s) URLs: ssh and git:// are not supported.';
      else if (parsed.username || parsed.password) errors.url = 'Put credentials in the fields below, not in the URL.';
    }
  }
  if (draft.username.trim() && !draft.password) errors.password = 'Enter the password or access token for this user name.';
  return errors;
}

/** The POST body: branch and path only when given; credentials only when a password is given (user name defaults to git). */
export function bodyOfDraft(draft: RepoDraft): { url: string; branch?: string; path?: string; credentials?: { username?: string; password: string } } {
  const body: ReturnType<typeof bodyOfDraft> = { url: draft.url.trim() };
  if (draft.branch.trim()) body.branch = draft.branch.trim();
  const path = draft.path.trim().replace(/^\/+|\/+$/g, '');
  if (path) body.path = path;
  if (draft.password) body.credentials = { ...(draft.username.trim() ? { username: draft.username.trim() } : {}), password: draft.password };
  return body;
}

export function shortCommit(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 7) : '–';
}

/** Whether a sync is queued or under way (the page polls while it is). */
export function isSyncing(status: string): boolean {
  return status === 'queued' || status === 'syncing';
}

const TOOLS: [RegExp, string][] = [
  [/\.js$/i, 'k6'],
  [/\.py$/i, 'locust'],
  [/\.jmx$/i, 'jmeter'],
  [/\.ya?ml$/i, 'artillery'],
  [/\.(scala|java)$/i, 'gatling'],
];

/** The tool a file becomes a test of, by its extension; null for other files. */
export function toolOfPath(path: string): string | null {
  return TOOLS.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

export interface RepoLike {
  path: string;
  created_at: string;
}

export interface TestLike {
  id: string;
  name: string;
  tool: string;
  status: string;
  created_at: string;
}

/**
 * The workspace's tests that look made by this repository: named after a file path under its `path` whose extension
 * makes a test of that tool, created since the repository was added. (The API does not link tests to repositories.)
 */
export function testsOfRepo<T extends TestLike>(tests: T[], repo: RepoLike): T[] {
  const prefix = repo.path ? `${repo.path.replace(/\/+$/, '')}/` : '';
  const since = Date.parse(repo.created_at);
  return tests.filter((test) => {
    if (prefix && !test.name.startsWith(prefix)) return false;
    if (toolOfPath(test.name) !== test.tool) return false;
    return Number.isNaN(since) || Date.parse(test.created_at) >= since - 1000;
  });
}

export interface SyncResult {
  files: number;
  created: number;
  updated: number;
  unchanged: number;
  archived: number;
  skipped: { path: string; reason: string }[];
}

/** "4 files: 2 created, 1 updated, 1 unchanged, 0 archived, 1 skipped". */
export function syncSummary(result: SyncResult | null | undefined): string {
  if (!result) return '–';
  const files = `${result.files} ${result.files === 1 ? 'file' : 'files'}`;
  return `${files}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.archived} archived, ${result.skipped.length} skipped`;
}
