/** Finds the k6 binary for tests the way the agent host does: K6_BIN, then PATH, then the CI cache; null when absent. */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const k6CachePath = join(homedir(), '.cache/loadplane/bin/k6');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function findK6(env: Record<string, string | undefined> = process.env): string | null {
  if (env.K6_BIN) return executable(env.K6_BIN) ? env.K6_BIN : null;
  for (const dir of (env.PATH ?? '').split(':')) if (dir && executable(join(dir, 'k6'))) return join(dir, 'k6');
  return executable(k6CachePath) ? k6CachePath : null;
}

/** The k6 binary the agent would run, or `k6` (for benchmarks that run k6 alone beside the agent). */
export function resolveK6Binary(env: Record<string, string | undefined> = process.env): string {
  return findK6(env) ?? 'k6';
}

/** Why a k6 suite cannot run here, or null. In CI a missing k6 is a failure, not a skip (see `requireOrSkip`). */
export const k6MissingReason = 'k6 not found (set K6_BIN, put k6 on PATH, or run `bash scripts/install-engines k6`)';

/** True when the test should go on; false after a console note when it should skip; throws in CI. */
export function requireOrSkip(reason: string | null, suite: string): boolean {
  if (!reason) return true;
  if (process.env.CI) throw new Error(`CI must run ${suite}: ${reason}`);
  console.warn(`skipped ${suite}: ${reason}`);
  return false;
}
