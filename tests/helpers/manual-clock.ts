/** A clock (core/ports/clock.ts) that moves only when a test advances it: timers fire in time order, none on their own. */
import type { Clock } from '../../core/ports/clock.ts';

interface Timer {
  at: number;
  /** Creation order: timers due at one instant fire in the order they were set, as real timers do. */
  seq: number;
  every: number | null;
  callback: () => void;
}

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every timer that falls due on the way (those they set too) at its own instant. */
  advance(ms: number): void;
  /** Timers still set (a run that ended must leave none). */
  pending(): number;
}

export function createManualClock(start = 1_000_000): ManualClock {
  let time = start;
  let seq = 0;
  const timers = new Set<Timer>();
  const set = (ms: number, every: number | null, callback: () => void) => {
    const timer: Timer = { at: time + Math.max(0, ms), seq: seq++, every, callback };
    timers.add(timer);
    return () => void timers.delete(timer);
  };
  const nextDue = (until: number) => {
    let next: Timer | null = null;
    for (const timer of timers) if (timer.at <= until && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq))) next = timer;
    return next;
  };
  return {
    now: () => time,
    after: (ms, callback) => set(ms, null, callback),
    // A zero period would never let time move on.
    every: (ms, callback) => set(Math.max(1, ms), Math.max(1, ms), callback),
    advance(ms) {
      const until = time + ms;
      for (let timer = nextDue(until); timer; timer = nextDue(until)) {
        time = timer.at;
        if (timer.every === null) timers.delete(timer);
        else Object.assign(timer, { at: timer.at + timer.every, seq: seq++ });
        timer.callback();
      }
      time = until;
    },
    pending: () => timers.size,
  };
}
