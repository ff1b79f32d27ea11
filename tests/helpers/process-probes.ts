/** Probes for tests that start processes: is a process group still alive, and a bounded wait for a condition. */

/** True while any process of the group `pid` leads is alive (signal 0 probes without signalling). */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await Bun.sleep(20);
  }
}
