/** Linux /proc readings for a benchmark: which process listens on a port, and CPU used by it, by postgres and by the machine. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const ticksPerSecond = 100; // USER_HZ; 100 on every Linux this runs on (getconf CLK_TCK)

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The pid of the process with a listening TCP socket on `port`, or null (not Linux, or not permitted). */
export function pidListeningOn(port: number): number | null {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(table) ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN; field 9 is the inode.
      if (fields.length > 9 && fields[3] === '0A' && parseInt(fields[1]!.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return null;
}

/** utime + stime of one process, in seconds; null once it is gone. */
function processCpuSeconds(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return null;
  // The command name may contain spaces and parentheses: fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** Summed CPU seconds of every process named `postgres` (the throwaway cluster's backends). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || read(`/proc/${entry}/comm`)?.trim() !== 'postgres') continue;
    total += processCpuSeconds(Number(entry)) ?? 0;
  }
  return total;
}

/** Jiffies of the whole machine: process time (user + nice + system), interrupt time (irq + softirq) and the total. */
/** Whole-machine CPU ticks from /proc/stat: processes, interrupts (irq + softirq), and the total. */
export function machineTicks(): { processes: number; interrupts: number; steal: number; total: number } {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = (read('/proc/stat') ?? 'cpu 0')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { processes: user + nice + system, interrupts: irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** CPU used during a measured run, each in percent of ONE core (100 = one core saturated; the machine has cores x 100). */
export interface CpuUsage {
  /** The server process. */
  server: number | null;
  /** All `postgres` processes together. */
  postgres: number;
  /** The load generator. */
  wrk: number;
  /** Interrupt time (irq + softirq): on loopback mostly the TCP stack, which Linux charges to no process. */
  softirq: number;
  /** Process time of everything else on the machine; large means a noisy run. */
  other: number | null;
}

/** Starts measuring; call the returned function with wrk's CPU seconds when the measured work is over. */
export function measureCpu(serverPid: number | null): (wrkCpuSeconds: number) => CpuUsage {
  const started = performance.now();
  const server0 = serverPid === null ? null : processCpuSeconds(serverPid);
  const postgres0 = postgresCpuSeconds();
  const machine0 = machineTicks();
  return (wrkCpuSeconds) => {
    const wall = (performance.now() - started) / 1000;
    const server1 = serverPid === null ? null : processCpuSeconds(serverPid);
    const machine1 = machineTicks();
    // Percent of one core: jiffies over all cores, scaled by the number of cores.
    const share = (key: 'processes' | 'interrupts') =>
      machine1.total > machine0.total ? ((machine1[key] - machine0[key]) / (machine1.total - machine0.total)) * 100 * availableParallelism() : 0;
    const server = server0 === null || server1 === null ? null : ((server1 - server0) / wall) * 100;
    // Backends that exit during the run take their CPU time with them: never report below zero.
    const postgres = Math.max(0, ((postgresCpuSeconds() - postgres0) / wall) * 100);
    const wrk = (wrkCpuSeconds / wall) * 100;
    const other = server === null ? null : Math.max(0, share('processes') - server - postgres - wrk);
    return { server, postgres, wrk, softirq: share('interrupts'), other };
  };
}

/**
 * Waits until the machine is quiet: process CPU below `thresholdPercent` of one core for `seconds` seconds in a row
 * (other people's builds and tests share this machine). Gives up after `maxSeconds` and says so. `excludePids` are the
 * benchmark's own processes (a connected fleet is never idle): their CPU does not count against the threshold.
 */
export async function waitForQuietMachine(
  options: { thresholdPercent?: number; seconds?: number; maxSeconds?: number; excludePids?: () => number[] } = {},
) {
  const threshold = options.thresholdPercent ?? 15;
  const needed = options.seconds ?? 2;
  const deadline = performance.now() + (options.maxSeconds ?? 120) * 1000;
  const started = performance.now();
  // Jiffies (USER_HZ 100, as /proc/stat counts) of the excluded processes.
  const ownTicks = () => (options.excludePids?.() ?? []).reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0) * 100, 0);
  let calm = 0;
  let last = machineTicks();
  let lastOwn = ownTicks();
  while (calm < needed) {
    if (performance.now() > deadline) return { quiet: false, waitedSeconds: (performance.now() - started) / 1000 };
    await Bun.sleep(1000);
    const now = machineTicks();
    const own = ownTicks();
    const others = now.processes - last.processes - Math.max(0, own - lastOwn);
    const busy = now.total > last.total ? (Math.max(0, others) / (now.total - last.total)) * 100 * availableParallelism() : 0;
    last = now;
    lastOwn = own;
    calm = busy < threshold ? calm + 1 : 0;
  }
  return { quiet: true, waitedSeconds: (performance.now() - started) / 1000 };
}
