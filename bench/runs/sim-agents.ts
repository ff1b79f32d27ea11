/** Simulated agents: many raw protocol clients (hello, heartbeat, started, finished) on real WebSockets in one worker process. */
import type { Subprocess } from 'bun';
import { readdirSync, readFileSync } from 'node:fs';

/** What the driver tells a worker. */
export type ToWorker =
  | { type: 'connect'; url: string; agents: { hostname: string; token: string; hold?: boolean }[]; concurrency: number; heartbeatSeconds: number }
  /** Agents that hold their first run finish it now and answer every later one at once. */
  | { type: 'release' }
  | { type: 'exit' };

/** What a worker reports. */
export type FromWorker =
  | { type: 'connected'; hostname: string; machineId: string; at: number }
  | { type: 'failed'; hostname: string; reason: string }
  | { type: 'closed'; hostname: string; code: number }
  | { type: 'assign'; hostname: string; taskId: string; assignmentId: string; at: number }
  | { type: 'error'; hostname: string; message: string };

const epochMs = () => performance.timeOrigin + performance.now();
const emptySummary = { histogram: { v: 1, buckets: '', count: 0, min: 0, max: 0, sum: 0 }, requests: 0, errors: 0, startedAt: 1, endedAt: 1 };

interface Sim {
  hostname: string;
  socket: WebSocket;
  hold: boolean;
  held: string[];
  heartbeat?: ReturnType<typeof setInterval>;
}

/** Worker body: runs when this file is the process entry. */
function runWorker() {
  const sims: Sim[] = [];
  const report = (message: FromWorker) => process.send!(message);
  let releasing = false;

  const finish = (sim: Sim, assignmentId: string) =>
    sim.socket.send(JSON.stringify({ type: 'finished', assignmentId, status: 'completed', exitCode: 0, summary: emptySummary }));

  function connectOne(url: string, agent: { hostname: string; token: string; hold?: boolean }, heartbeatSeconds: number): Promise<void> {
    return new Promise((resolve) => {
      let settled = false;
      const done = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${agent.token}` } } as unknown as string[]);
      const sim: Sim = { hostname: agent.hostname, socket, hold: agent.hold === true && !releasing, held: [] };
      sims.push(sim);
      const timeout = setTimeout(() => {
        report({ type: 'failed', hostname: agent.hostname, reason: 'no welcome within 60 s' });
        done();
      }, 60_000);
      socket.addEventListener('open', () => {
        socket.send(
          JSON.stringify({ type: 'hello', protocol: 1, hostname: agent.hostname, ip_address: '127.0.0.1', os: 'linux', arch: 'x86_64', cpu_cores: 1, memory_gb: 1, agent_version: 'sim', tools: ['custom'], running: [] }),
        );
      });
      socket.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; machineId?: string; message?: string; assignment?: { assignmentId: string; taskId: string } };
        if (message.type === 'welcome') {
          clearTimeout(timeout);
          report({ type: 'connected', hostname: agent.hostname, machineId: message.machineId!, at: epochMs() });
          // Heartbeats spread over the interval, as real agents started at different times would send them.
          setTimeout(() => {
            sim.heartbeat = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type":"heartbeat"}'), heartbeatSeconds * 1000);
          }, Math.random() * heartbeatSeconds * 1000);
          done();
        } else if (message.type === 'assign') {
          const at = epochMs();
          const { assignmentId, taskId } = message.assignment!;
          socket.send(JSON.stringify({ type: 'started', assignmentId }));
          if (sim.hold) sim.held.push(assignmentId);
          else finish(sim, assignmentId);
          report({ type: 'assign', hostname: agent.hostname, taskId, assignmentId, at });
        } else if (message.type === 'error') {
          report({ type: 'error', hostname: agent.hostname, message: message.message ?? '' });
        }
      });
      socket.addEventListener('close', (event) => {
        clearTimeout(timeout);
        if (sim.heartbeat) clearInterval(sim.heartbeat);
        if (!settled) report({ type: 'failed', hostname: agent.hostname, reason: `closed ${event.code} before welcome` });
        else report({ type: 'closed', hostname: agent.hostname, code: event.code });
        done();
      });
    });
  }

  process.on('message', async (message: ToWorker) => {
    if (message.type === 'connect') {
      let next = 0;
      const lane = async () => {
        while (next < message.agents.length) await connectOne(message.url, message.agents[next++]!, message.heartbeatSeconds);
      };
      await Promise.all(Array.from({ length: Math.max(1, message.concurrency) }, lane));
    } else if (message.type === 'release') {
      releasing = true;
      for (const sim of sims) {
        sim.hold = false;
        for (const id of sim.held.splice(0)) finish(sim, id);
      }
    } else if (message.type === 'exit') {
      for (const sim of sims) sim.socket.close();
      setTimeout(() => process.exit(0), 200);
    }
  });
}

if (import.meta.main) runWorker();

/** A worker process seen from the driver. */
export interface SimWorker {
  process: Subprocess;
  pid: number;
  send(message: ToWorker): void;
  stop(): Promise<void>;
}

/** Starts one worker; `onMessage` receives everything its agents report. */
export function startSimWorker(onMessage: (message: FromWorker) => void): SimWorker {
  const child = Bun.spawn({
    cmd: [process.execPath, import.meta.path],
    stdio: ['ignore', 'inherit', 'inherit'],
    serialization: 'json',
    ipc: (message) => onMessage(message as FromWorker),
  });
  return {
    process: child,
    pid: child.pid,
    send: (message) => child.send(message),
    async stop() {
      try {
        child.send({ type: 'exit' });
      } catch {
        // gone already
      }
      const exited = await Promise.race([child.exited, Bun.sleep(5_000).then(() => null)]);
      if (exited === null) child.kill('SIGKILL');
    },
  };
}

/** Resident set size of a process in MiB (VmRSS), and its peak (VmHWM); null once it is gone. */
export function memoryMiB(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Open file descriptors of a process (sockets included). */
export function openFds(pid: number): number | null {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}
