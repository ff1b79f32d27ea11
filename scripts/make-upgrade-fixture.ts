#!/usr/bin/env bun
/**
 * Makes the upgrade fixture (tests/fixtures/upgrade/): the database and DATA_DIR of a previous release, filled through
 * its own HTTP API, saved as a `loadplane backup` file that tests/integration/upgrade-from-previous-release.test.ts
 * restores and starts this release on. Refresh it at each release, from the release before:
 *
 *   ./node_modules/.bin/bun scripts/make-upgrade-fixture.ts <commit or tag> [--note TEXT] [--out DIR]
 *
 * The manifest (previous-release.json) names the release: `version` from that commit's package.json, and `release`,
 * the version with the tag (when one was given), the short commit and the note, e.g. "0.1.0 (2beb67b, the last commit
 * before the hardening work of issue 17)": a version number alone may not tell releases apart when it was not bumped.
 *
 * The release runs from a temporary `git worktree` with this checkout's node_modules linked in (its dependencies must
 * be installed here: run `npm ci` in the worktree by hand if they differ), on a fresh DATA_DIR with embedded PGlite,
 * its local agent sandboxed or not (AGENT_SANDBOX=false when bubblewrap is missing). The backup is written by THIS
 * checkout's `loadplane backup`, which reads any release's database as it is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type InstallationManifest, populateInstallation } from '../tests/helpers/populate-installation.ts';

const root = resolve(import.meta.dir, '..');
const bun = join(root, 'node_modules/.bin/bun');
const { values, positionals } = parseArgs({ args: Bun.argv.slice(2), options: { out: { type: 'string' }, note: { type: 'string' } }, allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: bun scripts/make-upgrade-fixture.ts <commit or tag> [--note TEXT] [--out tests/fixtures/upgrade]');
  process.exit(2);
}
const out = resolve(values.out ?? join(root, 'tests/fixtures/upgrade'));
const git = (...args: string[]) => {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};
const commit = git('rev-parse', '--verify', `${positionals[0]}^{commit}`);
const version = (JSON.parse(git('show', `${commit}:package.json`)) as { version?: string }).version ?? 'unversioned';
const tag = git('tag', '--points-at', commit).split('\n').find((name) => name === positionals[0]);
const release = `${version} (${[tag, commit.slice(0, 7), values.note].filter(Boolean).join(', ')})`;

const work = mkdtempSync(join(tmpdir(), 'lp-upgrade-fixture-'));
const worktree = join(work, 'release');
const dataDir = join(work, 'data');
const admin = { username: 'admin', password: 'fixture-admin-password-1' };

/** This checkout's packages, linked one by one: the release's own name (`loadplane` -> `..`) must resolve to the worktree. */
function linkNodeModules() {
  const source = join(root, 'node_modules');
  const target = join(worktree, 'node_modules');
  mkdirSync(target);
  for (const name of readdirSync(source)) {
    if (name === '.cache') continue; // this checkout's caches (a PGlite template) are not the release's
    const path = join(source, name);
    const link = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
    // Workspace packages and the self-link are relative: recreated so they point into the worktree.
    symlinkSync(link && !link.startsWith('/') ? link : path, join(target, name));
  }
}

const freePort = () =>
  new Promise<number>((done, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function runRelease(): Promise<InstallationManifest> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sandbox = spawnSync('bwrap', ['--version']).status === 0;
  const child = spawn(bun, ['adapters/runtime/bun/main.ts'], {
    cwd: worktree,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      BOOTSTRAP_ADMIN_USERNAME: admin.username,
      BOOTSTRAP_ADMIN_PASSWORD: admin.password,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      LOCAL_AGENT: 'true',
      ...(sandbox ? {} : { AGENT_SANDBOX: 'false' }),
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the release exited before it was ready:\n${log}`);
      const ready = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the release did not answer /healthz:\n${log}`);
      await Bun.sleep(200);
    }
    const clientSecret = readFileSync(join(dataDir, 'auth-client-secret'), 'utf8').trim();
    return await populateInstallation({ url, clientSecret, admin });
  } catch (error) {
    console.error(log);
    throw error;
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) console.error(`the release exited with ${code} on SIGTERM`);
  }
}

try {
  console.error(`making the upgrade fixture from ${commit} in ${work}`);
  git('worktree', 'add', '--detach', worktree, commit);
  linkNodeModules();
  const manifest = { release, version, commit, made_at: new Date().toISOString(), ...(await runRelease()) };
  mkdirSync(out, { recursive: true });
  const sqlFile = join(out, 'previous-release.sql');
  rmSync(sqlFile, { force: true });
  const backup = spawnSync(bun, ['adapters/runtime/bun/loadplane.ts', 'backup', sqlFile], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (backup.status !== 0) throw new Error(`loadplane backup failed: ${backup.stderr}${backup.stdout}`);
  writeFileSync(join(out, 'previous-release.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.error(`${backup.stdout.trim()}\nfixture written to ${out} (previous-release.sql, previous-release.json)`);
} finally {
  spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: root });
  rmSync(work, { recursive: true, force: true });
}
