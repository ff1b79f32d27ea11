/**
 * The embedded database serves one process: PGlite has no server and no lock of its own, and two processes writing
 * one directory corrupt it. The service, `loadplane backup` and `loadplane restore` each take DATA_DIR/pglite.lock
 * while they use DATA_DIR/pglite, and refuse, naming the holder, while another process has it.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { takeLock } from '../files/process-lock.ts';

export class DatabaseInUseError extends Error {}

export const pgliteLockPath = (pgliteDir: string) => `${pgliteDir.replace(/\/+$/, '')}.lock`;

/** Takes the lock of the PGlite directory for `what` ("a running Loadplane service"); throws DatabaseInUseError if held. */
export function lockPglite(pgliteDir: string, what: string): () => void {
  const path = pgliteLockPath(pgliteDir);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const taken = takeLock(path, what);
  if ('heldBy' in taken) {
    throw new DatabaseInUseError(
      `the embedded database ${pgliteDir} is in use by ${taken.heldBy.what ?? 'another process'} (pid ${taken.heldBy.pid}); ` +
        'PGlite serves one process at a time: stop that process first',
    );
  }
  return () => taken.release();
}
