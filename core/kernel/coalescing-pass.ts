/**
 * A pass of work that runs one at a time and never misses a wake-up: a call while it runs makes it run once more right
 * after (every call meanwhile merges into that one) and answers the promise of the whole pass, the extra round included.
 * The workers (webhook and e-mail deliveries, git syncs, the dispatcher) and the live-session re-checks all wake this way.
 */

export interface CoalescingPass {
  /** Runs the pass now, or once more after the running one; resolves when no round is left. */
  (): Promise<void>;
  /** From inside the pass: ask for one more round (work the round saw but could not finish). */
  again(): void;
  /** Whether a pass is running. */
  readonly running: boolean;
  /** Resolves once the running pass (if any) has ended: what a worker's stop() waits for. */
  settled(): Promise<void>;
}

export interface CoalescingPassOptions {
  /** Checked before each extra round: once it answers true, no round starts. */
  stopped?: () => boolean;
  /** A round that throws is reported here and the loop goes on as if it had ended (a pass never rejects). */
  onError: (error: unknown) => void;
}

export function coalescingPass(round: () => Promise<unknown>, options: CoalescingPassOptions): CoalescingPass {
  let running: Promise<void> | null = null;
  let again = false;
  const start = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await round();
        } catch (error) {
          options.onError(error);
        }
      } while (again && !options.stopped?.());
    })().finally(() => {
      running = null;
    });
    return running;
  };
  return Object.defineProperties(start as CoalescingPass, {
    again: {
      value: () => {
        again = true;
      },
    },
    running: { get: () => running !== null },
    settled: { value: () => running ?? Promise.resolve() },
  });
}
