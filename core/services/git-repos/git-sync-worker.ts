/**
 * The git sync worker: claims queued repositories one at a time (a lease in the row, FOR UPDATE SKIP LOCKED, so any
 * replica may run it and a crashed one's claim expires), fetches the branch's newest commit through the GitFetcher
 * port, and turns the test files under the repository's path into tests: a file keeps its test across syncs (keyed by
 * repository and file path), a changed file updates it, a file gone upstream archives it. Safe to run twice.
 */
import { limitsOf } from '../../domain/plans.ts';
import { AuditEntry } from '../../domain/entities/audit-entry.ts';
import {
  isUnderPath,
  maxFetchBytes,
  maxSyncedFiles,
  syncTimeoutMillis,
  toolOfFile,
} from '../../domain/git-repo-rules.ts';
import { formatIp } from '../../domain/ip-address.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import { maxScriptBytes } from '../../domain/test-rules.ts';
import { coalescingPass } from '../../kernel/coalescing-pass.ts';
import type { HookBus } from '../../kernel/hook-bus.ts';
import type { KernelHooks } from '../../kernel/hooks.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { JobQueue } from '../../ports/job-queue.ts';
import type { PubSub } from '../../ports/pubsub.ts';
import type { GitFetcher, GitFile } from '../../ports/git-fetcher.ts';
import { sqlOf, transaction, type Tx } from '../sql.ts';
import type { OutboundUrlGuard } from '../webhooks/outbound-url-guard.ts';
import { lockWorkspace } from '../workspace-scope.ts';
import type { Credentials, GitRepoRow, SyncResult } from './git-repos.ts';

export interface GitSyncLimits {
  maxFetchBytes: number;
  timeoutMillis: number;
  maxFiles: number;
}

const leaseSeconds = 5 * 60;
const maxNameLength = 200;

/** The test's name: the file's repository path (its tail when longer than a name may be). */
const nameOf = (path: string) => (path.length <= maxNameLength ? path : `…${path.slice(path.length - maxNameLength + 1)}`);

/** The job that syncs queued git repositories, and the pubsub topic that wakes it on the replicas that run jobs. */
export const gitSyncJob = 'git-repos:sync';
export const gitSyncTopic = 'git_repos.wake';

export function createGitSyncWorker(deps: {
  db: Database;
  guard: OutboundUrlGuard;
  fetcher: GitFetcher;
  secrets: SecretBox;
  hooks: HookBus<KernelHooks>;
  logger: Logger;
  limits?: Partial<GitSyncLimits>;
  /** The loaded tools' script checks: a file its tool refuses is skipped with the reason, as a saved test would be. */
  validateScript?: (tool: string, script: string) => string | null;
}) {
  const limits: GitSyncLimits = { maxFetchBytes, timeoutMillis: syncTimeoutMillis, maxFiles: maxSyncedFiles, ...deps.limits };
  const sql = sqlOf(deps.db);
  let stopped = false;

  async function claim(): Promise<(GitRepoRow & { lease_id: string }) | null> {
    const leaseId = crypto.randomUUID();
    const [row] = await sql.all<GitRepoRow & { lease_id: string }>(
      `update git_repos set sync_status = 'syncing', sync_again = false, lease_id = ?, lease_until = now() + make_interval(secs => ?)
       where id = (
         select id from git_repos
         where sync_status = 'queued' or (sync_status = 'syncing' and lease_until < now())
         order by sync_requested_at nulls first, id limit 1 for update skip locked
       ) returning *`,
      [leaseId, leaseSeconds],
    );
    return row ?? null;
  }

  /** Ends a claimed sync: synced or failed, or queued again when a sync was asked for meanwhile. Nothing if the lease is gone. */
  async function finish(repo: GitRepoRow, outcome: { error: string } | { commit: string; files: GitFile[]; skipped: SyncResult['skipped'] }) {
    await transaction(deps.db, async (tx) => {
      const [current] = await tx.all<GitRepoRow>('select * from git_repos where id = ? and lease_id = ? for update', [repo.id, repo.lease_id]);
      // Deleted, or claimed by another replica after our lease ran out: that one's result counts.
      if (!current) return;
      const next = current.sync_again ? 'queued' : 'error' in outcome ? 'failed' : 'synced';
      const at = new Date();
      let result: SyncResult | null = null;
      let createdIds: string[] = [];
      let error: string | null = null;
      if ('error' in outcome) {
        error = outcome.error;
      } else {
        ({ result, createdIds, error } = await applyFiles(tx, current, outcome.files, outcome.skipped, at));
      }
      await tx.all(
        `update git_repos set sync_status = ?, sync_again = false, lease_id = null, lease_until = null,
           sync_requested_at = case when ? = 'queued' then ? else sync_requested_at end,
           last_error = ?, last_result = coalesce(?::jsonb, last_result),
           last_commit = coalesce(?, last_commit), last_synced_at = case when ? then ? else last_synced_at end
         where id = ?`,
        [
          next,
          next,
          at,
          error,
          result ? JSON.stringify(result) : null,
          'commit' in outcome ? outcome.commit : null,
          result !== null,
          at,
          current.id,
        ],
      );
      tx.em.create(AuditEntry, {
        id: crypto.randomUUID(),
        workspaceId: current.workspace_id,
        action: result ? 'git_repo.synced' : 'git_repo.sync_failed',
        actorType: 'system',
        actorId: null,
        actorLabel: 'git sync',
        actorUserId: null,
        targetType: 'git_repo',
        targetId: current.id,
        targetLabel: current.url,
        details: result ? { commit: (outcome as { commit: string }).commit, ...result, skipped: result.skipped.length } : { error },
        createdAt: at,
      });
      return createdIds;
    }).then(async (createdIds) => {
      for (const testId of createdIds ?? []) await deps.hooks.callHook('test:created', { workspaceId: repo.workspace_id, testId });
    });
  }

  /** Upserts the repository's tests from its files; returns the counts, the new test ids and a warning for a plan limit. */
  async function applyFiles(
    tx: Tx,
    repo: GitRepoRow,
    files: GitFile[],
    skipped: SyncResult['skipped'],
    at: Date,
  ) {
    const existing = await tx.all<{ id: string; git_path: string; script: string; status: string; tool: string }>(
      'select id, git_path, script, status, tool from tests where git_repo_id = ? and deleted_at is null',
      [repo.id],
    );
    const byPath = new Map(existing.map((row) => [row.git_path, row]));
    // Serialised with API creations of tests (lockWorkspace takes the same row with the same strength).
    await lockWorkspace(tx.em, repo.workspace_id);
    const [workspace] = await tx.all<{ plan: string }>('select plan from workspaces where id = ?', [repo.workspace_id]);
    const limit = limitsOf(workspace?.plan ?? 'starter').tests;
    let [{ count }] = (await tx.all<{ count: number }>('select count(*)::int as count from tests where workspace_id = ? and deleted_at is null', [
      repo.workspace_id,
    ])) as [{ count: number }];
    const result: SyncResult = { files: files.length, created: 0, updated: 0, unchanged: 0, archived: 0, skipped: [...skipped] };
    const createdIds: string[] = [];
    let error: string | null = null;
    const seen = new Set<string>();
    for (const file of files) {
      const tool = toolOfFile(file.path)!;
      seen.add(file.path);
      if (file.content.trim() === '') {
        result.skipped.push({ path: file.path, reason: 'empty file' });
        continue;
      }
      const script = file.content.replaceAll('\0', '\uFFFD');
      const problem = deps.validateScript?.(tool, script) ?? null;
      if (problem) {
        // An existing test keeps its last good script until the file is fixed.
        result.skipped.push({ path: file.path, reason: `not a valid ${tool} test: ${problem}` });
        continue;
      }
      const current = byPath.get(file.path);
      if (current) {
        if (current.script === script && current.status !== 'archived' && current.tool === tool) {
          result.unchanged++;
          continue;
        }
        await tx.all(`update tests set script = ?, tool = ?, status = case when status = 'archived' then 'active' else status end, updated_at = ? where id = ?`, [
          script,
          tool,
          at,
          current.id,
        ]);
        result.updated++;
        continue;
      }
      if (limit !== null && count >= limit) {
        result.skipped.push({ path: file.path, reason: `the ${workspace!.plan} plan allows ${limit} tests` });
        error = `some files were not imported: the ${workspace!.plan} plan allows ${limit} tests`;
        continue;
      }
      const id = crypto.randomUUID();
      await tx.all(
        `insert into tests (id, workspace_id, name, tool, status, script, created_at, updated_at, deleted_at, git_repo_id, git_path)
         values (?, ?, ?, ?, 'active', ?, ?, ?, null, ?, ?)`,
        [id, repo.workspace_id, nameOf(file.path), tool, script, at, at, repo.id, file.path],
      );
      count++;
      createdIds.push(id);
      result.created++;
    }
    // Files gone upstream (or now outside the path): their tests are archived, not deleted, so their runs keep them.
    for (const row of existing) {
      if (seen.has(row.git_path) || row.status === 'archived') continue;
      await tx.all(`update tests set status = 'archived', updated_at = ? where id = ?`, [at, row.id]);
      result.archived++;
    }
    return { result, createdIds, error };
  }

  async function syncOne(repo: GitRepoRow): Promise<void> {
    const verdict = await deps.guard.check(repo.url);
    if (!verdict.ok) return finish(repo, { error: verdict.reason.replace('webhooks may target it', 'the service may reach it') });
    let credentials: Credentials | null = null;
    if (repo.credentials_box) {
      try {
        credentials = JSON.parse(await deps.secrets.open(repo.credentials_box)) as Credentials;
      } catch {
        return finish(repo, { error: 'the stored credentials cannot be read (was SECRET_KEY changed?); set them again' });
      }
    }
    const fetched = await deps.fetcher({
      url: verdict.url,
      address: formatIp(verdict.addresses[0]!),
      branch: repo.branch,
      credentials: credentials ? { username: credentials.username ?? 'git', password: credentials.password } : null,
      path: repo.path,
      wanted: (path) => isUnderPath(path, repo.path) && toolOfFile(path) !== null,
      maxFetchBytes: limits.maxFetchBytes,
      maxFileBytes: maxScriptBytes,
      timeoutMillis: limits.timeoutMillis,
    });
    if (!fetched.ok) return finish(repo, { error: fetched.error });
    if (fetched.files.length > limits.maxFiles) {
      return finish(repo, {
        error: `${repo.path || 'the repository'} holds ${fetched.files.length} test files; a sync takes at most ${limits.maxFiles}: narrow path`,
      });
    }
    return finish(repo, { commit: fetched.commit, files: fetched.files, skipped: fetched.skipped });
  }

  async function drain(): Promise<void> {
    for (let repo = await claim(); repo && !stopped; repo = await claim()) {
        try {
          await syncOne(repo);
        } catch (error) {
          // A bug or a database failure: record it on the repository instead of leaving it syncing until the lease ends.
          deps.logger.error('git sync failed', { repo_id: repo.id, error: String(error) });
          await finish(repo, { error: 'the sync failed unexpectedly; see the service log' }).catch(() => {});
        }
    }
  }
  const pass = coalescingPass(drain, {
    stopped: () => stopped,
    onError: (error) => deps.logger.error('the git sync worker failed', { error: String(error) }),
  });

  /** Syncs every queued repository; a call during a pass makes it look once more. */
  const wake = (): Promise<void> => (stopped ? Promise.resolve() : pass());

  return {
    wake,
    /**
     * Registers its job and listens for wake-ups from API-only replicas (on a replica that runs jobs); answers the
     * unsubscribe of the wake-ups.
     */
    async schedule(jobs: JobQueue, pubsub: PubSub, everyMillis = 30_000): Promise<() => void> {
      const unsubscribe = pubsub.subscribe(gitSyncTopic, () => void wake());
      jobs.define(gitSyncJob, () => wake());
      await jobs.every(gitSyncJob, everyMillis);
      return unsubscribe;
    },
    async stop(): Promise<void> {
      stopped = true;
      await pass.settled();
    },
  };
}

export type GitSyncWorker = ReturnType<typeof createGitSyncWorker>;
