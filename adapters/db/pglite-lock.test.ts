/** DATA_DIR/pglite.lock: one process at a time on the embedded database; a lock whose holder is gone is no lock. */
import { afterAll, expect, test } from 'bun:test';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseInUseError, lockPglite, pgliteLockPath } from './pglite-lock.ts';

const root = await mkdtemp(join(tmpdir(), 'lp-pglite-lock-'));
afterAll(() => rm(root, { recursive: true, force: true }));

test('held: a second taker is refused with the holder named; released: taken again, the file gone', () => {
  const dir = join(root, 'a', 'pglite');
  const release = lockPglite(dir, 'a running Loadplane service');
  expect(JSON.parse(readFileSync(pgliteLockPath(dir), 'utf8'))).toMatchObject({ pid: process.pid, what: 'a running Loadplane service' });
  expect(() => lockPglite(dir, 'loadplane backup')).toThrow(DatabaseInUseError);
  expect(() => lockPglite(dir, 'loadplane backup')).toThrow(`in use by a running Loadplane service (pid ${process.pid})`);
  release();
  expect(existsSync(pgliteLockPath(dir))).toBe(false);
  lockPglite(dir, 'loadplane backup')();
});

test("another live process's lock refuses; a dead one's (a crash) does not", async () => {
  const dir = join(root, 'b', 'pglite');
  lockPglite(dir, 'setup')();
  const gone = spawnSync('true').pid!;
  writeFileSync(pgliteLockPath(dir), JSON.stringify({ pid: gone, boot: '', start: '', what: 'a crashed service' }));
  lockPglite(dir, 'the next start')();

  const sleeper = spawn('sleep', ['30']);
  try {
    const start = readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    writeFileSync(pgliteLockPath(dir), JSON.stringify({ pid: sleeper.pid, boot: '', start, what: 'a running Loadplane service' }));
    expect(() => lockPglite(dir, 'loadplane restore')).toThrow(`(pid ${sleeper.pid}); PGlite serves one process at a time`);
    // The same pid with another start time is a recycled pid, not the holder.
    writeFileSync(pgliteLockPath(dir), JSON.stringify({ pid: sleeper.pid, boot: '', start: '1', what: 'an older process' }));
    lockPglite(dir, 'loadplane restore')();
  } finally {
    sleeper.kill();
  }
});
