/** Probes for tests that start processes: is a process (group) still alive, and a bounded wait for a condition. */
import { readdirSync, readFileSync } from 'node:fs';

/** True while any process of the group `pid` leads is alive (signal 0 probes without signalling). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True while the process runs; a zombie (exited, not reaped: an orphan where PID 1 does not reap) counts as gone. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses, the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no procfs: signal 0 is all we know
  }
}

/**
 * Waits until `check` holds. The bound only turns a condition that never comes into a failure instead of a hang: it is
 * generous (30 s), so a loaded machine is slow, not failing; never use it to assert how fast something happens.
 * `what` names the condition (or gives the state to show) in the failure message.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what: string | (() => string) = 'a condition') {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await Bun.sleep(20);
  }
}

/**
 * The pid of a process whose command line holds `argument` (a `sleep 300.123456` with a random fraction), then its
 * parent's, as seen from outside: a tool in the sandbox has its own pid namespace and /tmp, so its `$!` means nothing
 * to the test. Empty while there is none.
 */
export function processTreeOf(argument: string): number[] {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      return [Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])];
    } catch {
      // gone meanwhile
    }
  }
  return [];
}

/** A `sleep` argument no other process has: 300 seconds and a random fraction. */
export const uniqueSleep = () => `300.${Math.floor(Math.random() * 1e6)}`;
