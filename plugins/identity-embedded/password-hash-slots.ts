/**
 * A bound on the PBKDF2 work this process does at once. Each derivation holds a core for ~0.2 s; without a bound a
 * burst of sign-ins (or guesses) takes every core and starves the rest of the service. Derivations beyond the bound
 * queue; a sign-in that would queue too long, or behind too many, is refused as busy instead.
 */

/** A sign-in's terms for queueing; work without terms (setting a password by an admin) waits its turn. */
export interface HashAdmission {
  maxWaitMillis: number;
  maxQueueLength: number;
}

/** Thrown when a sign-in cannot get a hashing slot within its terms: answer 503 with a short Retry-After. */
export class PasswordHashingBusy extends Error {
  constructor() {
    super('password hashing is at capacity');
    this.name = 'PasswordHashingBusy';
  }
}

interface Waiter {
  admit(): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Half the cores, at least one: guessing may have some of the machine, never all of it. */
export const defaultHashConcurrency = () =>
  Math.max(1, Math.floor((globalThis.navigator?.hardwareConcurrency ?? 2) / 2));

export function createHashSlots(initialLimit = defaultHashConcurrency()) {
  let limit = initialLimit;
  let active = 0;
  const waiting: Waiter[] = [];

  const acquire = (admission?: HashAdmission): Promise<void> => {
    if (active < limit && waiting.length === 0) {
      active++;
      return Promise.resolve();
    }
    if (admission && waiting.length >= admission.maxQueueLength) return Promise.reject(new PasswordHashingBusy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit() {
          clearTimeout(waiter.timer);
          resolve();
        },
      };
      if (admission) {
        waiter.timer = setTimeout(() => {
          const index = waiting.indexOf(waiter);
          if (index >= 0) waiting.splice(index, 1);
          reject(new PasswordHashingBusy());
        }, admission.maxWaitMillis);
      }
      waiting.push(waiter);
    });
  };

  const release = () => {
    // The slot passes straight to the next in line, so a newcomer cannot overtake the queue.
    const next = waiting.shift();
    if (next) next.admit();
    else active--;
  };

  return {
    async run<T>(work: () => Promise<T>, admission?: HashAdmission): Promise<T> {
      await acquire(admission);
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** The bound is per process (the cores are); the last provider set up in it decides. */
    setLimit(value: number) {
      limit = Math.max(1, Math.floor(value));
      while (active < limit && waiting.length > 0) {
        active++;
        waiting.shift()!.admit();
      }
    },
    stats: () => ({ limit, active, waiting: waiting.length }),
  };
}

export type HashSlots = ReturnType<typeof createHashSlots>;

/** The process's one set of slots: every PBKDF2 derivation of the embedded provider goes through it. */
export const passwordHashSlots = createHashSlots();
