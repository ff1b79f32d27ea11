/** A small seeded PRNG (mulberry32) for model tests: the same seed replays the same choices. */

export interface SeededRandom {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  int(min: number, maxInclusive: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One key, with probability proportional to its weight (weights of 0 are never picked). */
  weighted<K extends string>(weights: Record<K, number>): K;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const random: SeededRandom = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick(items) {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted(weights) {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [key, weight] of entries) {
        if (weight <= 0) continue;
        roll -= weight;
        if (roll < 0) return key;
      }
      return entries.filter(([, weight]) => weight > 0).at(-1)![0];
    },
  };
  return random;
}
