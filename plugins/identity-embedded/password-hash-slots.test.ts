/** The bound on concurrent PBKDF2 work: excess waits in order, a sign-in gives up when the queue is long or slow. */
import { describe, expect, test } from 'bun:test';
import { createHashSlots, defaultHashConcurrency, PasswordHashingBusy } from './password-hash-slots.ts';

/** Work that finishes when told to, recording how many ran at once. */
function gate() {
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const work = () =>
    new Promise<void>((resolve) => {
      running++;
      peak = Math.max(peak, running);
      releases.push(() => {
        running--;
        resolve();
      });
    });
  return { work, peak: () => peak, running: () => running, releaseOne: () => releases.shift()?.() };
}

describe('hash slots', () => {
  test('never more at once than the limit; the waiting run in arrival order', async () => {
    const slots = createHashSlots(2);
    const g = gate();
    const order: number[] = [];
    const runs = [0, 1, 2, 3, 4].map((index) => slots.run(() => g.work().then(() => order.push(index))));
    await Bun.sleep(5);
    expect(g.running()).toBe(2);
    expect(slots.stats()).toEqual({ limit: 2, active: 2, waiting: 3 });
    while (g.running() > 0) {
      g.releaseOne();
      await Bun.sleep(1);
    }
    await Promise.all(runs);
    expect(g.peak()).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(slots.stats()).toEqual({ limit: 2, active: 0, waiting: 0 });
  });

  test('a sign-in behind a full queue is refused at once; one that waits too long gives up', async () => {
    const slots = createHashSlots(1);
    const g = gate();
    const busy = slots.run(g.work);
    const queued = slots.run(async () => 'ran', { maxWaitMillis: 10_000, maxQueueLength: 1 });
    await expect(slots.run(async () => 'never', { maxWaitMillis: 10_000, maxQueueLength: 1 })).rejects.toBeInstanceOf(PasswordHashingBusy);
    const started = performance.now();
    await expect(slots.run(async () => 'never', { maxWaitMillis: 50, maxQueueLength: 5 })).rejects.toBeInstanceOf(PasswordHashingBusy);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    // Giving up left no trace: the queue still moves on.
    g.releaseOne();
    await busy;
    expect(await queued).toBe('ran');
    expect(slots.stats()).toEqual({ limit: 1, active: 0, waiting: 0 });
  });

  test('work that fails gives its slot back; raising the limit admits the waiting', async () => {
    const slots = createHashSlots(1);
    await expect(slots.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(slots.stats().active).toBe(0);
    const g = gate();
    const runs = [slots.run(g.work), slots.run(g.work), slots.run(g.work)];
    await Bun.sleep(5);
    expect(g.running()).toBe(1);
    slots.setLimit(3);
    await Bun.sleep(5);
    expect(g.running()).toBe(3);
    for (let index = 0; index < 3; index++) g.releaseOne();
    await Promise.all(runs);
  });

  test('the default leaves cores free: half of them, at least one', () => {
    const cores = navigator.hardwareConcurrency;
    expect(defaultHashConcurrency()).toBe(Math.max(1, Math.floor(cores / 2)));
  });
});
