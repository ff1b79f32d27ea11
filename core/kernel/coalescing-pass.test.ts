import { expect, test } from 'bun:test';
import { seededRandom } from '../../tests/helpers/seeded-random.ts';
import { coalescingPass } from './coalescing-pass.ts';

/** A round the test releases by hand: how many rounds started, and a way to end the current one. */
function gatedRound() {
  let rounds = 0;
  let release: (() => void) | null = null;
  const round = () => {
    rounds++;
    return new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  const finish = async () => {
    const current = release;
    release = null;
    current?.();
    // Let the loop decide on its next round.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { round, finish, rounds: () => rounds };
}

test('calls while a round runs merge into one more round, and every caller waits for it', async () => {
  const gate = gatedRound();
  const pass = coalescingPass(gate.round, { onError: () => {} });
  const first = pass();
  expect(pass.running).toBe(true);
  const second = pass();
  const third = pass();
  expect(second).toBe(first);
  expect(third).toBe(first);
  await gate.finish();
  expect(gate.rounds()).toBe(2);
  await gate.finish();
  await first;
  expect(gate.rounds()).toBe(2);
  expect(pass.running).toBe(false);
});

test('a round that throws is reported, the pass resolves, and a later call starts afresh', async () => {
  const errors: unknown[] = [];
  let calls = 0;
  const pass = coalescingPass(
    async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    },
    { onError: (error) => errors.push(error) },
  );
  await pass();
  expect(errors.map(String)).toEqual(['Error: boom']);
  await pass();
  expect(calls).toBe(2);
});

test('again() from inside a round asks for one more; stopped() ends the loop', async () => {
  let stopped = false;
  let rounds = 0;
  const pass = coalescingPass(
    async () => {
      rounds++;
      if (rounds < 3) pass.again();
      if (rounds === 3) {
        pass.again();
        stopped = true;
      }
    },
    { onError: () => {}, stopped: () => stopped },
  );
  await pass();
  expect(rounds).toBe(3);
});

test('seeded sequences: no wake-up is lost (a call after a round began always sees a later round)', async () => {
  for (let seed = 1; seed <= 25; seed++) {
    const random = seededRandom(seed);
    const gate = gatedRound();
    const pass = coalescingPass(gate.round, { onError: () => {} });
    let wantedAfterRound = 0; // the round count a call needs to have seen start after it
    const pending: Promise<void>[] = [];
    for (let step = 0; step < 40; step++) {
      if (random.chance(0.6)) {
        // Running or not, a round starts after this call: the next one, or a first one.
        wantedAfterRound = gate.rounds() + 1;
        pending.push(pass());
      } else await gate.finish();
    }
    while (pass.running) await gate.finish();
    await Promise.all(pending);
    expect(gate.rounds()).toBeGreaterThanOrEqual(wantedAfterRound);
  }
});
