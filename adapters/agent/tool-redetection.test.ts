/** The look for engines installed since the start: nothing is set up again until something missing is there. */
import { expect, test } from 'bun:test';
import { silentLogger } from '../../core/kernel/logger.ts';
import { watchForNewTools } from './tool-redetection.ts';

function fakeHost(name: string) {
  return { name, found: false, looks: 0, disposed: false, foundSince() { this.looks++; return this.found; }, async dispose() { this.disposed = true; } };
}

async function until(check: () => boolean) {
  while (!check()) await Bun.sleep(5);
}

test('looks every interval; sets a host up again only once something is found, and disposes every host at stop', async () => {
  const first = fakeHost('first');
  const second = fakeHost('second');
  const replaced: string[] = [];
  const watch = watchForNewTools({ host: first, intervalMillis: 1, rebuild: async () => second, onNewHost: (host) => replaced.push(host.name), logger: silentLogger });
  await until(() => first.looks >= 3);
  expect(replaced).toEqual([]);
  first.found = true;
  await until(() => replaced.length === 1);
  expect(watch.current()).toBe(second);
  // The old host may still run a run: kept until the agent stops.
  expect(first.disposed).toBe(false);
  await until(() => second.looks >= 2);
  expect(replaced).toEqual(['second']);
  await watch.stop();
  expect([first.disposed, second.disposed]).toEqual([true, true]);
});

test('an interval of 0 never looks', async () => {
  const host = fakeHost('only');
  const watch = watchForNewTools({ host, intervalMillis: 0, rebuild: async () => host, onNewHost: () => {}, logger: silentLogger });
  await Bun.sleep(0);
  expect(host.looks).toBe(0);
  await watch.stop();
  expect(host.disposed).toBe(true);
});
