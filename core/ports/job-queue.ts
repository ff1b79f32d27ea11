/**
 * The job-queue port: named background jobs that run every so often and on demand, on whichever replica the queue
 * picks (Agenda locks each run in the database). Handlers must be safe to run twice and concurrently: a lock can
 * expire under a slow run, and the durable state lives in the handler's own tables, not in the queue.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface JobQueue {
  /** Registers a handler; call before `start`. */
  define(name: string, handler: () => Promise<void>): void;
  /** Runs the job every `intervalMillis` (one schedule shared by every replica). */
  every(name: string, intervalMillis: number): Promise<void>;
  /** Runs the job soon, once. */
  now(name: string): Promise<void>;
  start(): Promise<void>;
  /** Stops taking jobs and waits for running ones. */
  stop(): Promise<void>;
}

export const jobQueuePort = defineCapability<JobQueue>({ id: 'port.jobQueue', cardinality: 'one' });

/** One process, timers only: for hosts without a job store, and tests. Runs of one job never overlap. */
export function createTimerJobQueue(): JobQueue {
  const handlers = new Map<string, () => Promise<void>>();
  const timers: ReturnType<typeof setInterval>[] = [];
  const running = new Map<string, Promise<void>>();
  let started = false;
  const intervals: Array<[string, number]> = [];
  const run = (name: string) => {
    const handler = handlers.get(name);
    if (!handler || !started || running.has(name)) return;
    const done = handler()
      .catch(() => {})
      .finally(() => running.delete(name));
    running.set(name, done);
  };
  return {
    define(name, handler) {
      handlers.set(name, handler);
    },
    async every(name, intervalMillis) {
      intervals.push([name, intervalMillis]);
      if (started) timers.push(setInterval(() => run(name), intervalMillis));
    },
    async now(name) {
      queueMicrotask(() => run(name));
    },
    async start() {
      started = true;
      for (const [name, millis] of intervals) timers.push(setInterval(() => run(name), millis));
    },
    async stop() {
      started = false;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
