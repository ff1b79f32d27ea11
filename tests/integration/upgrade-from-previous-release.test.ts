/**
 * Upgrading from the previous release. tests/fixtures/upgrade/ holds that release's database and DATA_DIR, filled
 * through its own API (scripts/make-upgrade-fixture.ts, from the commit the manifest names), as a `loadplane backup`
 * file. It is restored with `loadplane restore` into a fresh DATA_DIR (embedded PGlite) and into a fresh PostgreSQL
 * database; THIS release starts on it and runs its newer migrations; then verify-installation.ts checks through the HTTP
 * API that everything is there and works: old passwords and API tokens, tests, runs with their figures and logs, columns
 * added since with their defaults (pending_reason null on finished tasks, computed for the one still waiting), secrets
 * that still decrypt into a new run.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadplane } from '../helpers/loadplane-cli.ts';
import type { InstallationManifest } from '../helpers/populate-installation.ts';
import { postgresOrSkip } from '../helpers/postgres-server.ts';
import { repoRoot, startServiceProcess } from '../helpers/service-process.ts';
import { verifyInstallation } from '../helpers/verify-installation.ts';

const fixture = join(repoRoot, 'tests/fixtures/upgrade/previous-release.sql');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'tests/fixtures/upgrade/previous-release.json'), 'utf8')) as InstallationManifest & {
  /** The release in words: its version, then its tag if it has one, short commit and a note. */
  release: string;
  /** The `version` of that commit's package.json. */
  version: string;
  commit: string;
  made_at: string;
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function upgrade(databaseUrl: string | null) {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-upgrade-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const target = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };

  const restored = await runLoadplane(['restore', fixture], target);
  expect(restored.stderr).toBe('');
  expect(restored.code).toBe(0);
  expect(restored.stdout).toContain(`restored from ${fixture}`);

  // No BOOTSTRAP_ADMIN_*: the admin the old release made must keep its password, not get a new one. The local agent
  // runs tools unsandboxed: this suite is about the data, not isolation, and must run where bubblewrap is missing.
  const service = await startServiceProcess({ env: { ...target, LOCAL_AGENT: 'true', AGENT_SANDBOX: 'false' }, embedded: databaseUrl === null });
  cleanups.push(() => service.stop());
  expect(service.output()).toContain('loadplane is listening');

  await verifyInstallation(service, dataDir, manifest);
  expect(await service.stop()).toBe(0);
}

describe(`upgrade from the previous release, ${manifest.release}`, () => {
  test('the fixture names its release: the version and the full commit it was made from', () => {
    // The full commit, not a tag (one can move, or be missing from a clone), is what remakes the fixture
    // (scripts/make-upgrade-fixture.ts takes it); the release's words must name that same commit and version.
    expect(manifest.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.release.startsWith(`${manifest.version} (`)).toBe(true);
    expect(manifest.release).toContain(manifest.commit.slice(0, 7));
  });

  test('embedded PGlite under DATA_DIR', () => upgrade(null), 300_000);

  test('PostgreSQL server', async () => {
    const postgres = await postgresOrSkip();
    if (!postgres) return;
    cleanups.push(() => postgres.stop());
    await upgrade(postgres.url);
  }, 300_000);
});
