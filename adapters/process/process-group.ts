/** Signals for a tool's process group: the whole group, or (Linux) every member but its leader, read from /proc. */
import { readdirSync, readFileSync } from 'node:fs';

export type Signal = 'SIGTERM' | 'SIGKILL' | 'SIGINT';

export function signalGroup(pgid: number, signal: Signal): void {
  try {
    // A negative pid addresses the process group; the child leads its own (detached: true means setsid()).
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the whole group is gone already.
  }
}

/** The process-group id in /proc/<pid>/stat: the fields after the command name, which may itself hold spaces and ')'. */
function groupOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[2]); // state, ppid, pgrp
}

/**
 * Every process of the group but the leader: a sandbox's monitor leads the group and dies at once on SIGTERM, taking
 * the sandbox with it; its pid-namespace init ignores SIGTERM from outside (no handler), the tool gets it and may stop
 * gracefully. Processes that come and go meanwhile are skipped; SIGKILL later catches anything left.
 */
export function signalGroupButLeader(pgid: number, signal: Signal): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return signalGroup(pgid, signal);
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const member = Number(entry);
    if (member === pgid) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone
    }
    if (groupOf(stat) !== pgid) continue;
    try {
      process.kill(member, signal);
    } catch {
      // exited meanwhile
    }
  }
}
