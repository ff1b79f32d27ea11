/**
 * A lock file that names the live process holding something (pid, boot id, process start time): a holder that crashed,
 * a reboot or a recycled pid leaves no lock that needs removing by hand. Advisory: every party must take it.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface LockHolder {
  pid: number;
  boot: string;
  start: string;
  /** What holds it, in words for a refusal ("a running Loadplane service"). */
  what?: string;
}

/** Lock files this process holds. */
const heldHere = new Set<string>();

/** A file's text, or null when it does not exist. */
export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** /proc, where there is one and it may be read ('' elsewhere: Deno without --allow-all, another OS). */
function fromProc(path: string): string {
  try {
    return readText(path) ?? '';
  } catch {
    return '';
  }
}

/** Linux's id of this boot: a lock from another boot (a reboot, a cloned VM) names a process that no longer exists. */
const bootId = () => fromProc('/proc/sys/kernel/random/boot_id').trim();

/** When the process started (clock ticks since boot), so a recycled pid is not taken for the holder. */
function startTicks(pid: number): string {
  const stat = fromProc(`/proc/${pid}/stat`);
  return stat ? (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '') : '';
}

/** Whether the process exists; where signals may not be sent (Deno without --allow-run), it is taken for gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string | null): LockHolder | null {
  try {
    const holder = JSON.parse(text ?? '') as LockHolder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

/** The live process that holds the lock at `path`, or null (none, or a stale one). */
export function lockHolder(path: string): LockHolder | null {
  const full = resolve(path);
  const holder = parse(readText(full));
  if (!holder) return null;
  // Our own pid: held only if this process took it (pid 1 in a container is every start's pid).
  if (holder.pid === process.pid) return heldHere.has(full) ? holder : null;
  if (holder.boot && bootId() && holder.boot !== bootId()) return null;
  if (!alive(holder.pid)) return null;
  const start = startTicks(holder.pid);
  return !holder.start || !start || holder.start === start ? holder : null;
}

/** Takes the lock at `path` (its directory must exist), or returns the live holder that has it. */
export function takeLock(path: string, what: string): { release(): void } | { heldBy: LockHolder } {
  const full = resolve(path);
  const holder = lockHolder(full);
  if (holder) return { heldBy: holder };
  const temporary = `${full}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ pid: process.pid, boot: bootId(), start: startTicks(process.pid), what } satisfies LockHolder), { mode: 0o600 });
  renameSync(temporary, full);
  heldHere.add(full);
  return {
    release() {
      if (!heldHere.delete(full)) return;
      // Only our own: a lock taken over meanwhile (ours thought stale) keeps its holder's.
      if (parse(readText(full))?.pid !== process.pid) return;
      try {
        unlinkSync(full);
      } catch {
        // already gone
      }
    },
  };
}
