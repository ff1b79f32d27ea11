/** The clock port: the time and timers, so code that waits (the agent's interval metrics, progress lines) can run on a test's manual clock. */

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `callback` once after `ms`; the function returned cancels it. */
  after(ms: number, callback: () => void): () => void;
  /** Calls `callback` every `ms` until the function returned is called. */
  every(ms: number, callback: () => void): () => void;
}

/** The host's own clock: web-standard timers, so it serves every runtime the core runs on. */
export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  every(ms, callback) {
    const timer = setInterval(callback, ms);
    return () => clearInterval(timer);
  },
};
